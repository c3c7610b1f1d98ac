package dev.hourglass.forward;

import java.time.Duration;

/**
 * Where a {@link Forwarder} publishes: a RabbitMQ exchange ({@link AmqpTarget}) or a Kafka topic
 * ({@link KafkaTarget}). Immutable; {@code toString()} never shows a password.
 */
public sealed interface Target permits AmqpTarget, KafkaTarget {
  /** Default for {@link #timeout()}: 10 s. */
  Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  /**
   * How long one publish may wait for the broker's confirm before the job is retried by its
   * backoff. The forwarder's leases last this long plus a margin.
   *
   * @return 1 ms to 5 min (default {@link #DEFAULT_TIMEOUT})
   */
  Duration timeout();
}
