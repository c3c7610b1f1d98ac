package dev.hourglass.forward;

import dev.hourglass.InvalidArgumentException;
import java.time.Duration;

/** Checks shared by the target builders. */
final class Targets {
  static final Duration MAX_TIMEOUT = Duration.ofMinutes(5);

  private Targets() {}

  static Duration timeout(Duration timeout) {
    if (timeout == null || timeout.toMillis() < 1 || timeout.compareTo(MAX_TIMEOUT) > 0) {
      throw new InvalidArgumentException("timeout", "must be from 1 ms to 5 min");
    }
    return timeout;
  }

  static String text(String field, String value, int max) {
    if (value == null || value.isBlank()) {
      throw new InvalidArgumentException(field, "is required");
    }
    if (value.length() > max) {
      throw new InvalidArgumentException(field, "must be at most " + max + " characters");
    }
    return value;
  }
}
