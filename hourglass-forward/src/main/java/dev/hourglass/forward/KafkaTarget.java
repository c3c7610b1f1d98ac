package dev.hourglass.forward;

import dev.hourglass.InvalidArgumentException;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * A Kafka topic: each job is sent with {@code acks=all} and idempotence on, and counts as delivered
 * when the broker acknowledged it. The record key is the job id ({@link #keyById()}), so a job's
 * retries land on the same partition, or none, so the producer spreads the records.
 *
 * <pre>{@code
 * KafkaTarget.builder().bootstrapServers("kafka:9092").topic("orders").build()
 * }</pre>
 */
public final class KafkaTarget implements Target {
  private static final Pattern TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");
  private static final Pattern SERVERS =
      Pattern.compile("[^\\s,:]+:\\d{1,5}(,[^\\s,:]+:\\d{1,5})*");

  private final String bootstrapServers;
  private final String topic;
  private final boolean keyById;
  private final Duration timeout;

  private KafkaTarget(Builder b) {
    this.bootstrapServers = b.bootstrapServers;
    this.topic = b.topic;
    this.keyById = b.keyById;
    this.timeout = b.timeout;
  }

  /**
   * A builder keying records by job id with the timeout {@link Target#DEFAULT_TIMEOUT}; the
   * bootstrap servers and the topic are required.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The brokers the producer starts from.
   *
   * @return {@code host:port[,host:port...]}
   */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /**
   * The topic every job is sent to.
   *
   * @return the topic name
   */
  public String topic() {
    return topic;
  }

  /**
   * Whether records are keyed by job id.
   *
   * @return true (the default): the record key is the job id; false: records have no key
   */
  public boolean keyById() {
    return keyById;
  }

  @Override
  public Duration timeout() {
    return timeout;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KafkaTarget t
        && bootstrapServers.equals(t.bootstrapServers)
        && topic.equals(t.topic)
        && keyById == t.keyById
        && timeout.equals(t.timeout);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(bootstrapServers, topic, keyById, timeout);
  }

  @Override
  public String toString() {
    return "KafkaTarget{bootstrapServers="
        + bootstrapServers
        + ", topic="
        + topic
        + ", key="
        + (keyById ? "id" : "none")
        + ", timeout="
        + timeout.toMillis()
        + " ms}";
  }

  /** Checks every field when built: {@link InvalidArgumentException} names the one to fix. */
  public static final class Builder {
    private String bootstrapServers;
    private String topic;
    private boolean keyById = true;
    private Duration timeout = DEFAULT_TIMEOUT;

    private Builder() {}

    /**
     * The brokers the producer starts from.
     *
     * @param servers {@code host:port}, or several separated by commas; at most 2048 characters
     * @return this builder
     * @throws InvalidArgumentException when they are missing or not of that form
     */
    public Builder bootstrapServers(String servers) {
      Targets.text("bootstrapServers", servers, 2048);
      if (!SERVERS.matcher(servers).matches()) {
        throw new InvalidArgumentException(
            "bootstrapServers", "must be host:port, or several separated by commas");
      }
      this.bootstrapServers = servers;
      return this;
    }

    /**
     * The topic every job is sent to.
     *
     * @param topic 1 to 249 letters, digits, {@code .}, {@code _} or {@code -}
     * @return this builder
     * @throws InvalidArgumentException when it is missing or not of that form
     */
    public Builder topic(String topic) {
      Targets.text("topic", topic, 249);
      if (!TOPIC.matcher(topic).matches()) {
        throw new InvalidArgumentException(
            "topic", "may hold only letters, digits, '.', '_' and '-' (at most 249)");
      }
      this.topic = topic;
      return this;
    }

    /**
     * See {@link KafkaTarget#keyById()}.
     *
     * @param keyById false for records without a key
     * @return this builder
     */
    public Builder keyById(boolean keyById) {
      this.keyById = keyById;
      return this;
    }

    /**
     * See {@link Target#timeout()}: 1 ms to 5 min, default 10 s.
     *
     * @param timeout the acknowledgement timeout
     * @return this builder
     * @throws InvalidArgumentException when it is null or out of range
     */
    public Builder timeout(Duration timeout) {
      this.timeout = Targets.timeout(timeout);
      return this;
    }

    /**
     * Builds the target.
     *
     * @return the target
     * @throws InvalidArgumentException when the bootstrap servers or the topic are not set
     */
    public KafkaTarget build() {
      if (bootstrapServers == null) {
        throw new InvalidArgumentException("bootstrapServers", "is required");
      }
      if (topic == null) {
        throw new InvalidArgumentException("topic", "is required");
      }
      return new KafkaTarget(this);
    }
  }
}
