package dev.hourglass;

import java.util.Locale;

/** Where a job is in its life. An acked, cancelled or expired job no longer exists. */
public enum JobState {
  /** Waiting for its due time (or for its retry after a failure). */
  DELAYED,
  /** Due, waiting for a consumer. */
  READY,
  /** Leased to a consumer until its lease deadline. */
  INFLIGHT,
  /** Attempts exhausted or killed by its consumer; kept for inspection and requeue. */
  DEAD;

  /**
   * The lower-case name used on the wire and in messages, e.g. {@code "delayed"}.
   *
   * @return the label
   */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses a {@link #label()} (any case).
   *
   * @param label a label
   * @return the state
   * @throws IllegalArgumentException when it names no state
   * @throws NullPointerException when it is null
   */
  public static JobState fromLabel(String label) {
    return valueOf(label.toUpperCase(Locale.ROOT));
  }
}
