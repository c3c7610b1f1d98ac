package dev.hourglass;

import dev.hourglass.spi.PayloadCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One delivery of a job to a consumer: the job and the lease that holds it. Settle it with {@link
 * Queue#ack(Delivery)} or {@link Queue#nack(Delivery, Nack)} before {@link #leaseUntil()}, or
 * extend the lease; otherwise the job comes back (and the attempt counts).
 *
 * @param queue the queue name
 * @param id the job id
 * @param payload the payload, read with the codec of the handle that claimed it
 * @param attempt this delivery's attempt number, 1-based
 * @param maxAttempts deliveries the job gets before it goes dead
 * @param priority the job's priority, 0 to {@value JobSpec#MAX_PRIORITY}
 * @param receipt the lease token; ack, nack and extend must present it
 * @param leaseUntil the lease deadline, by the Redis server clock
 * @param dueAt when the job was due
 * @param createdAt when the job was enqueued
 * @param visibility the lease length of this delivery
 * @param backoff the job's retry delays (its own, or the queue's)
 * @param lastError the error of the previous attempt, if any
 * @param schedule the id of the schedule the job is an occurrence of, if it is one
 * @param <T> the payload type of the queue handle
 */
public record Delivery<T>(
    String queue,
    String id,
    Payload<T> payload,
    int attempt,
    int maxAttempts,
    int priority,
    String receipt,
    Instant leaseUntil,
    Instant dueAt,
    Instant createdAt,
    Duration visibility,
    Backoff backoff,
    Optional<String> lastError,
    Optional<String> schedule) {

  /**
   * The payload as UTF-8 text, for logs and display.
   *
   * @return {@link Payload#asString()} of the payload
   */
  public String payloadAsString() {
    return payload.asString();
  }

  /**
   * True when a failure of this attempt sends the job to dead.
   *
   * @return whether {@code attempt >= maxAttempts}
   */
  public boolean lastAttempt() {
    return attempt >= maxAttempts;
  }

  /**
   * The same delivery with its payload read by another codec.
   *
   * @param codec the codec to read the payload with
   * @param <U> its payload type
   * @return a copy of this delivery, its payload the same bytes
   * @throws InvalidArgumentException when the codec is null
   */
  public <U> Delivery<U> as(PayloadCodec<U> codec) {
    return new Delivery<>(
        queue,
        id,
        payload.as(codec),
        attempt,
        maxAttempts,
        priority,
        receipt,
        leaseUntil,
        dueAt,
        createdAt,
        visibility,
        backoff,
        lastError,
        schedule);
  }
}
