package dev.hourglass.internal;

import dev.hourglass.KillJobException;
import java.time.Duration;

/**
 * How a worker settles a handled delivery: ack, retry (by the job's backoff, or after an explicit
 * delay), or dead.
 *
 * @param error the job's last error, one line; empty for an ack
 * @param delayMs the retry delay, or -1 for the job's backoff
 */
record Outcome(boolean ack, String error, long delayMs, boolean kill) {
  static final Outcome ACK = new Outcome(true, "", -1, false);

  /** The handler threw: retried by backoff, or dead for a {@link KillJobException}. */
  static Outcome failed(Throwable t) {
    return new Outcome(false, LastErrors.describe(t), -1, t instanceof KillJobException);
  }

  static Outcome retryAfter(Duration delay, String reason) {
    return new Outcome(false, LastErrors.oneLine(reason), delay.toMillis(), false);
  }

  static Outcome dead(String reason) {
    return new Outcome(false, LastErrors.oneLine(reason), -1, true);
  }
}
