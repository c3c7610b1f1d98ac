package dev.hourglass.spring.autoconfigure;

import java.time.Duration;

/**
 * What this application runs for one queue, under {@code hourglass.queues.<name>}: forwarding its
 * due jobs to RabbitMQ or Kafka, as the server's {@code amqp} and {@code kafka} delivery types do.
 */
public class HourglassQueueProperties {
  /** Forwarding of the queue's due jobs to a broker (module hourglass-forward); unset: none. */
  private Forward forward;

  /**
   * Forwarding to a broker; null when not configured.
   *
   * @return the nested properties under {@code hourglass.queues.<name>.forward}
   */
  public Forward getForward() {
    return forward;
  }

  /**
   * Binds {@code hourglass.queues.<name>.forward}.
   *
   * @param forward the value from the configuration
   */
  public void setForward(Forward forward) {
    this.forward = forward;
  }

  /** Forwarding of a queue's due jobs: exactly one of {@code amqp} and {@code kafka}. */
  public static class Forward {
    /** Publishes awaiting the broker's confirm at most (1 to 1024). */
    private int concurrency = 256;

    /** How long a publish may wait for the broker's confirm (1ms to 5m). */
    private Duration timeout = Duration.ofSeconds(10);

    /** A RabbitMQ (AMQP 0-9-1) exchange to publish to. */
    private Amqp amqp;

    /** A Kafka topic to send to. */
    private Kafka kafka;

    /**
     * Publishes awaiting the broker's confirm at most.
     *
     * @return the value bound from {@code hourglass.queues.<name>.forward.concurrency}
     */
    public int getConcurrency() {
      return concurrency;
    }

    /**
     * Binds {@code hourglass.queues.<name>.forward.concurrency}.
     *
     * @param concurrency the value from the configuration
     */
    public void setConcurrency(int concurrency) {
      this.concurrency = concurrency;
    }

    /**
     * How long a publish may wait for the broker's confirm.
     *
     * @return the value bound from {@code hourglass.queues.<name>.forward.timeout}
     */
    public Duration getTimeout() {
      return timeout;
    }

    /**
     * Binds {@code hourglass.queues.<name>.forward.timeout}.
     *
     * @param timeout the value from the configuration
     */
    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }

    /**
     * The RabbitMQ target; null when not configured.
     *
     * @return the nested properties under {@code hourglass.queues.<name>.forward.amqp}
     */
    public Amqp getAmqp() {
      return amqp;
    }

    /**
     * Binds {@code hourglass.queues.<name>.forward.amqp}.
     *
     * @param amqp the value from the configuration
     */
    public void setAmqp(Amqp amqp) {
      this.amqp = amqp;
    }

    /**
     * The Kafka target; null when not configured.
     *
     * @return the nested properties under {@code hourglass.queues.<name>.forward.kafka}
     */
    public Kafka getKafka() {
      return kafka;
    }

    /**
     * Binds {@code hourglass.queues.<name>.forward.kafka}.
     *
     * @param kafka the value from the configuration
     */
    public void setKafka(Kafka kafka) {
      this.kafka = kafka;
    }
  }

  /** A RabbitMQ exchange: each job is published persistent and mandatory, with confirms. */
  public static class Amqp {
    /** amqp://user:pass@host:port/vhost or amqps://... (the vhost / is written %2f). */
    private String uri;

    /** The exchange every job is published to; "" is the default exchange. */
    private String exchange;

    /** The routing key of every message. */
    private String routingKey = "";

    /**
     * The broker's URI.
     *
     * @return the value bound from {@code hourglass.queues.<name>.forward.amqp.uri}
     */
    public String getUri() {
      return uri;
    }

    /**
     * Binds {@code hourglass.queues.<name>.forward.amqp.uri}.
     *
     * @param uri the value from the configuration
     */
    public void setUri(String uri) {
      this.uri = uri;
    }

    /**
     * The exchange every job is published to.
     *
     * @return the value bound from {@code hourglass.queues.<name>.forward.amqp.exchange}
     */
    public String getExchange() {
      return exchange;
    }

    /**
     * Binds {@code hourglass.queues.<name>.forward.amqp.exchange}.
     *
     * @param exchange the value from the configuration
     */
    public void setExchange(String exchange) {
      this.exchange = exchange;
    }

    /**
     * The routing key of every message.
     *
     * @return the value bound from {@code hourglass.queues.<name>.forward.amqp.routing-key}
     */
    public String getRoutingKey() {
      return routingKey;
    }

    /**
     * Binds {@code hourglass.queues.<name>.forward.amqp.routing-key}.
     *
     * @param routingKey the value from the configuration
     */
    public void setRoutingKey(String routingKey) {
      this.routingKey = routingKey;
    }
  }

  /** A Kafka topic: each job is sent with acks=all and idempotence on. */
  public static class Kafka {
    /** The brokers the producer starts from: host:port, or several separated by commas. */
    private String bootstrapServers;

    /** The topic every job is sent to. */
    private String topic;

    /** The record key: the job's id (a job's retries land on its partition) or none. */
    private Key key = Key.ID;

    /**
     * The brokers the producer starts from.
     *
     * @return the value bound from {@code hourglass.queues.<name>.forward.kafka.bootstrap-servers}
     */
    public String getBootstrapServers() {
      return bootstrapServers;
    }

    /**
     * Binds {@code hourglass.queues.<name>.forward.kafka.bootstrap-servers}.
     *
     * @param bootstrapServers the value from the configuration
     */
    public void setBootstrapServers(String bootstrapServers) {
      this.bootstrapServers = bootstrapServers;
    }

    /**
     * The topic every job is sent to.
     *
     * @return the value bound from {@code hourglass.queues.<name>.forward.kafka.topic}
     */
    public String getTopic() {
      return topic;
    }

    /**
     * Binds {@code hourglass.queues.<name>.forward.kafka.topic}.
     *
     * @param topic the value from the configuration
     */
    public void setTopic(String topic) {
      this.topic = topic;
    }

    /**
     * The record key.
     *
     * @return the value bound from {@code hourglass.queues.<name>.forward.kafka.key}
     */
    public Key getKey() {
      return key;
    }

    /**
     * Binds {@code hourglass.queues.<name>.forward.kafka.key}.
     *
     * @param key the value from the configuration
     */
    public void setKey(Key key) {
      this.key = key;
    }
  }

  /** The key of a forwarded Kafka record. */
  public enum Key {
    /** The job's id. */
    ID,
    /** No key: the producer spreads the records over the partitions. */
    NONE
  }
}
