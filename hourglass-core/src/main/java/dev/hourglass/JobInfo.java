package dev.hourglass;

import dev.hourglass.spi.PayloadCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A snapshot of a job, as {@link Queue#get(String)} and the dead-letter listing return it.
 *
 * @param queue the queue name
 * @param id the job id
 * @param state its state when read, by the Redis server clock
 * @param runAt the due time (of the next attempt, for a retried job)
 * @param attempts deliveries made so far: 0 before the first claim; for an inflight job, the
 *     attempt its delivery is on ({@link Delivery#attempt()}); after n failed or expired
 *     deliveries, n (a dead letter requeued starts again from 0), as the archive counts them
 * @param maxAttempts deliveries the job gets before it goes dead
 * @param priority its priority, 0 to {@value JobSpec#MAX_PRIORITY} (higher first among due jobs)
 * @param createdAt when it was enqueued
 * @param expiresAt when its ttl runs out, if it has one
 * @param leaseUntil the lease deadline, for an inflight job
 * @param diedAt when it went dead, for a dead job
 * @param visibility the lease length of its deliveries
 * @param backoff its retry delays (its own, or the queue's)
 * @param lastError the error of its last failed attempt, if any
 * @param payload the payload, read with the codec of the handle that read the job
 * @param schedule the id of the schedule the job is an occurrence of ({@link Schedules}), if it is
 *     one
 * @param <T> the payload type of the queue handle
 */
public record JobInfo<T>(
    String queue,
    String id,
    JobState state,
    Instant runAt,
    int attempts,
    int maxAttempts,
    int priority,
    Instant createdAt,
    Optional<Instant> expiresAt,
    Optional<Instant> leaseUntil,
    Optional<Instant> diedAt,
    Duration visibility,
    Backoff backoff,
    Optional<String> lastError,
    Payload<T> payload,
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
   * The same snapshot with its payload read by another codec.
   *
   * @param codec the codec to read the payload with
   * @param <U> its payload type
   * @return a copy of this snapshot, its payload the same bytes
   * @throws InvalidArgumentException when the codec is null
   */
  public <U> JobInfo<U> as(PayloadCodec<U> codec) {
    return new JobInfo<>(
        queue,
        id,
        state,
        runAt,
        attempts,
        maxAttempts,
        priority,
        createdAt,
        expiresAt,
        leaseUntil,
        diedAt,
        visibility,
        backoff,
        lastError,
        payload.as(codec),
        schedule);
  }
}
