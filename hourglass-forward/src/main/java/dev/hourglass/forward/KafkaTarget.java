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

  public static Builder builder() {
    return new Builder();
  }

  /** {@code host:port[,host:port...]}. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  public String topic() {
    return topic;
  }

  /** True (the default): the record key is the job id; false: records have no key. */
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

    public Builder bootstrapServers(String servers) {
      Targets.text("bootstrapServers", servers, 2048);
      if (!SERVERS.matcher(servers).matches()) {
        throw new InvalidArgumentException(
            "bootstrapServers", "must be host:port, or several separated by commas");
      }
      this.bootstrapServers = servers;
      return this;
    }

    public Builder topic(String topic) {
      Targets.text("topic", topic, 249);
      if (!TOPIC.matcher(topic).matches()) {
        throw new InvalidArgumentException(
            "topic", "may hold only letters, digits, '.', '_' and '-' (at most 249)");
      }
      this.topic = topic;
      return this;
    }

    /** See {@link KafkaTarget#keyById()}. */
    public Builder keyById(boolean keyById) {
      this.keyById = keyById;
      return this;
    }

    /** See {@link Target#timeout()}: 1 ms to 5 min, default 10 s. */
    public Builder timeout(Duration timeout) {
      this.timeout = Targets.timeout(timeout);
      return this;
    }

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
