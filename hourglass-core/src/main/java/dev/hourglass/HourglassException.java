package dev.hourglass;

/**
 * Base of every exception Hourglass throws. Unchecked: each subtype says what the caller can do
 * about it.
 */
public class HourglassException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public HourglassException(String message) {
    super(message);
  }

  public HourglassException(String message, Throwable cause) {
    super(message, cause);
  }
}
