package dev.hourglass.internal;

import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobSpec;
import java.time.Duration;
import java.util.regex.Pattern;

/** Validation of queue names and job ids. */
public final class Names {
  /** Queue names: 1 to 100 of {@code A-Z a-z 0-9 . _ -}. */
  public static final Pattern QUEUE = Pattern.compile("[A-Za-z0-9._-]{1,100}");

  private Names() {}

  public static String queue(String name) {
    if (name == null || !QUEUE.matcher(name).matches() || name.equals(".") || name.equals("..")) {
      throw new InvalidArgumentException(
          "queue",
          "name must be 1 to 100 of A-Z a-z 0-9 . _ -, and not . or .. (was " + quote(name) + ")");
    }
    return name;
  }

  public static String id(String id) {
    if (!JobSpec.isValidId(id)) {
      throw new InvalidArgumentException(
          "id", "must be 1 to 128 of A-Z a-z 0-9 . _ : - (was " + quote(id) + ")");
    }
    return id;
  }

  public static String receipt(String receipt) {
    if (receipt == null || receipt.isEmpty() || receipt.length() > 64) {
      throw new InvalidArgumentException("receipt", "is required (the receipt of a claim)");
    }
    return receipt;
  }

  /** A lease or ttl length: 1 ms to {@link JobSpec#MAX_DURATION}. */
  public static Duration duration(String field, Duration d) {
    if (d == null) {
      throw new InvalidArgumentException(field, "is required");
    }
    if (d.toMillis() < 1 || d.compareTo(JobSpec.MAX_DURATION) > 0) {
      throw new InvalidArgumentException(
          field,
          "must be between 1 ms and "
              + JobSpec.MAX_DURATION.toMillis()
              + " ms, was "
              + d.toMillis()
              + " ms");
    }
    return d;
  }

  static String quote(String s) {
    if (s == null) {
      return "null";
    }
    return "'" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "'";
  }
}
