package dev.hourglass;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A snapshot of a job, as {@link Queue#get(String)} and the dead-letter listing return it.
 *
 * @param runAt the due time (of the next attempt, for a retried job)
 * @param attempts attempts that have failed or expired so far
 * @param leaseUntil the lease deadline, for an inflight job
 * @param diedAt when it went dead, for a dead job
 * @param expiresAt when its ttl runs out, if it has one
 */
public record JobInfo(
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
    byte[] payload) {

  /** The payload decoded as UTF-8. */
  public String payloadAsString() {
    return new String(payload, StandardCharsets.UTF_8);
  }
}
