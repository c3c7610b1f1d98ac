package dev.hourglass;

import java.util.Locale;

/** How a job finished: the outcomes {@link Outbox} records for an archive. */
public enum JobOutcome {
  /** Acked by its consumer. */
  ACKED,
  /** Moved to dead letters: attempts spent, killed, or its last lease lapsed. */
  DEAD,
  /** Cancelled while delayed, ready or dead. */
  CANCELLED,
  /** Removed when its ttl passed. */
  EXPIRED,
  /** A dead letter deleted: purged, or past the dead-letter retention. */
  PURGED;

  /**
   * The name the HTTP API and the archive use: {@code acked}, {@code dead}, ...
   *
   * @return the lower-case name
   */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The outcome of a wire name.
   *
   * @param name a {@link #wireName()}
   * @return the outcome
   * @throws InvalidArgumentException for any other text
   */
  public static JobOutcome ofWireName(String name) {
    for (JobOutcome o : values()) {
      if (o.wireName().equals(name)) {
        return o;
      }
    }
    throw new InvalidArgumentException(
        "outcome", "must be acked, dead, cancelled, expired or purged, was " + name);
  }
}
