package dev.hourglass.internal;

/** A job's last error: what a failure or a reason is stored as. */
final class LastErrors {
  private static final int MAX_ERROR_LINE = 1000;

  private LastErrors() {}

  /**
   * A failure as the job's last error: one line, the exception's class and message, and those of
   * its causes, at most {@value #MAX_ERROR_LINE} characters.
   */
  static String describe(Throwable t) {
    StringBuilder line = new StringBuilder();
    for (Throwable c = t; c != null && line.length() < MAX_ERROR_LINE; c = c.getCause()) {
      if (c != t) {
        line.append("; caused by ");
      }
      line.append(c.getClass().getName());
      if (c.getMessage() != null) {
        line.append(": ").append(c.getMessage());
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return oneLine(line.toString());
  }

  /** Text as a last error: one line of at most {@value #MAX_ERROR_LINE} characters. */
  static String oneLine(String text) {
    String line = text == null ? "" : text.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    return line.length() > MAX_ERROR_LINE ? line.substring(0, MAX_ERROR_LINE) : line;
  }
}
