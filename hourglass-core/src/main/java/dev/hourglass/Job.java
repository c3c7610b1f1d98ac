package dev.hourglass;

import java.time.Duration;
import java.time.Instant;

/**
 * A job as a {@link JobHandler} receives it: the decoded payload, the delivery's metadata, and the
 * handler's say in how it is settled. A payload the codec cannot decode never reaches a handler:
 * the job goes to dead letters with the decoder's message as its last error.
 *
 * @param <T> the payload type of the queue handle
 */
public interface Job<T> {

  /** The payload, decoded by the queue handle's codec. */
  T payload();

  /** The delivery: id, attempt, lease, due time, previous error, raw payload. */
  Delivery<T> delivery();

  default String id() {
    return delivery().id();
  }

  /** This delivery's attempt number, 1-based. */
  default int attempt() {
    return delivery().attempt();
  }

  default int maxAttempts() {
    return delivery().maxAttempts();
  }

  /** When the job was due. */
  default Instant dueAt() {
    return delivery().dueAt();
  }

  /** True when a failure of this attempt sends the job to dead. */
  default boolean lastAttempt() {
    return delivery().lastAttempt();
  }

  /** The payload's bytes as UTF-8 text, for logs. */
  default String payloadAsString() {
    return delivery().payloadAsString();
  }

  /**
   * When the handler returns, retry the job after exactly this delay (a partner's Retry-After, say)
   * instead of acking it; the attempt counts, and past the last attempt the job goes dead. The last
   * call of {@code retryAfter} or {@link #dead} wins.
   *
   * @param reason kept as the job's last error
   * @throws InvalidArgumentException when the delay is negative or longer than {@link
   *     Backoff#MAX_DELAY}
   */
  void retryAfter(Duration delay, String reason);

  /**
   * When the handler returns, send the job to dead letters now, whatever attempts remain.
   *
   * @param reason kept as the job's last error
   */
  void dead(String reason);
}
