package dev.hourglass;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A job as a {@link JobHandler} receives it: the decoded payload, the delivery's metadata, and the
 * handler's say in how it is settled. A payload the codec cannot decode never reaches a handler:
 * the job goes to dead letters with the decoder's message as its last error.
 *
 * @param <T> the payload type of the queue handle
 */
public interface Job<T> {

  /**
   * The payload, decoded by the queue handle's codec (once, before the handler was called).
   *
   * @return the decoded payload
   */
  T payload();

  /**
   * The delivery: id, attempt, lease, due time, previous error, raw payload.
   *
   * @return the delivery this job came with
   */
  Delivery<T> delivery();

  /**
   * The job id.
   *
   * @return {@code delivery().id()}
   */
  default String id() {
    return delivery().id();
  }

  /**
   * This delivery's attempt number, 1-based.
   *
   * @return {@code delivery().attempt()}
   */
  default int attempt() {
    return delivery().attempt();
  }

  /**
   * Deliveries the job gets before it goes dead.
   *
   * @return {@code delivery().maxAttempts()}
   */
  default int maxAttempts() {
    return delivery().maxAttempts();
  }

  /**
   * The job's priority, 0 to {@value JobSpec#MAX_PRIORITY}.
   *
   * @return {@code delivery().priority()}
   */
  default int priority() {
    return delivery().priority();
  }

  /**
   * When the job was due.
   *
   * @return {@code delivery().dueAt()}
   */
  default Instant dueAt() {
    return delivery().dueAt();
  }

  /**
   * True when a failure of this attempt sends the job to dead.
   *
   * @return {@code delivery().lastAttempt()}
   */
  default boolean lastAttempt() {
    return delivery().lastAttempt();
  }

  /**
   * The payload's bytes as UTF-8 text, for logs.
   *
   * @return {@code delivery().payloadAsString()}
   */
  default String payloadAsString() {
    return delivery().payloadAsString();
  }

  /**
   * The schedule this job is an occurrence of ({@link Schedules}), if it is one.
   *
   * @return {@code delivery().schedule()}
   */
  default Optional<String> schedule() {
    return delivery().schedule();
  }

  /**
   * When the handler returns, retry the job after exactly this delay (a partner's Retry-After, say)
   * instead of acking it; the attempt counts, and past the last attempt the job goes dead. The last
   * call of {@code retryAfter} or {@link #dead} wins.
   *
   * @param delay from the Redis server's now when the handler returns, 0 to {@link
   *     Backoff#MAX_DELAY}
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
