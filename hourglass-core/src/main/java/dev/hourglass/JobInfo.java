package dev.hourglass;

import dev.hourglass.spi.PayloadCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A snapshot of a job, as {@link Queue#get(String)} and the dead-letter listing return it.
 *
 * @param runAt the due time (of the next attempt, for a retried job)
 * @param attempts deliveries made so far: 0 before the first claim; for an inflight job, the
 *     attempt its delivery is on ({@link Delivery#attempt()}); after n failed or expired
 *     deliveries, n (a dead letter requeued starts again from 0), as the archive counts them
 * @param leaseUntil the lease deadline, for an inflight job
 * @param diedAt when it went dead, for a dead job
 * @param expiresAt when its ttl runs out, if it has one
 * @param payload the payload, read with the codec of the handle that read the job
 * @param <T> the payload type of the queue handle
 */
public record JobInfo<T>(
    String queue,
    String id,
    JobState state,
    Instant runAt,
    int attempts,
    int maxAttempts,
    Instant createdAt,
    Optional<Instant> expiresAt,
    Optional<Instant> leaseUntil,
    Optional<Instant> diedAt,
    Duration visibility,
    Backoff backoff,
    Optional<String> lastError,
    Payload<T> payload) {

  /** The payload as UTF-8 text, for logs and display. */
  public String payloadAsString() {
    return payload.asString();
  }

  /** The same snapshot with its payload read by another codec. */
  public <U> JobInfo<U> as(PayloadCodec<U> codec) {
    return new JobInfo<>(
        queue,
        id,
        state,
        runAt,
        attempts,
        maxAttempts,
        createdAt,
        expiresAt,
        leaseUntil,
        diedAt,
        visibility,
        backoff,
        lastError,
        payload.as(codec));
  }
}
