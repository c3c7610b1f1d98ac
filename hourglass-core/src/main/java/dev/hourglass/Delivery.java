package dev.hourglass;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One delivery of a job to a consumer: the job and the lease that holds it. Settle it with {@link
 * Queue#ack(String, String)} or {@link Queue#nack(String, String, Nack)} before {@link
 * #leaseUntil()}, or extend the lease; otherwise the job comes back (and the attempt counts).
 *
 * @param attempt this delivery's attempt number, 1-based
 * @param receipt the lease token; ack, nack and extend must present it
 * @param dueAt when the job was due
 * @param lastError the error of the previous attempt, if any
 */
public record Delivery(
    String queue,
    String id,
    byte[] payload,
    int attempt,
    int maxAttempts,
    String receipt,
    Instant leaseUntil,
    Instant dueAt,
    Instant createdAt,
    Duration visibility,
    Backoff backoff,
    Optional<String> lastError) {

  /** The payload decoded as UTF-8. */
  public String payloadAsString() {
    return new String(payload, StandardCharsets.UTF_8);
  }

  /** True when a failure of this attempt sends the job to dead. */
  public boolean lastAttempt() {
    return attempt >= maxAttempts;
  }
}
