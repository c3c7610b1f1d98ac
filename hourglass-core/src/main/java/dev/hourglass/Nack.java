package dev.hourglass;

import java.time.Duration;
import java.util.Optional;

/**
 * How to settle a failed delivery: retry by the job's backoff, retry after an explicit delay, or
 * kill the job (to dead at once). A retry past the job's last attempt also goes to dead.
 *
 * @param error the failure text kept as the job's last error, on one line (line breaks become
 *     spaces) of at most 1,000 characters
 * @param delay the retry delay, or empty for the job's backoff
 * @param kill true to move the job to dead now
 */
public record Nack(String error, Optional<Duration> delay, boolean kill) {
  /**
   * Checks the delay; a null error is kept as empty text, a null delay as empty.
   *
   * @param error the failure text kept as the job's last error, or null
   * @param delay the retry delay, 0 to {@link Backoff#MAX_DELAY}, or empty (or null) for the job's
   *     backoff
   * @param kill true to move the job to dead now
   * @throws InvalidArgumentException when the delay is out of range
   */
  public Nack {
    error = error == null ? "" : error;
    delay = delay == null ? Optional.empty() : delay;
    if (delay.isPresent()
        && (delay.get().isNegative() || delay.get().compareTo(Backoff.MAX_DELAY) > 0)) {
      throw new InvalidArgumentException(
          "delay", "must be between 0 and " + Backoff.MAX_DELAY.toMillis() + " ms");
    }
  }

  /**
   * Retry by the job's backoff.
   *
   * @param error kept as the job's last error
   * @return the nack
   */
  public static Nack retry(String error) {
    return new Nack(error, Optional.empty(), false);
  }

  /**
   * Retry after exactly this delay.
   *
   * @param delay 0 to {@link Backoff#MAX_DELAY}
   * @param error kept as the job's last error
   * @return the nack
   * @throws InvalidArgumentException when the delay is out of range
   * @throws NullPointerException when the delay is null
   */
  public static Nack retryAfter(Duration delay, String error) {
    return new Nack(error, Optional.of(delay), false);
  }

  /**
   * Move the job to dead now, whatever attempts remain.
   *
   * @param error kept as the job's last error
   * @return the nack
   */
  public static Nack kill(String error) {
    return new Nack(error, Optional.empty(), true);
  }
}
