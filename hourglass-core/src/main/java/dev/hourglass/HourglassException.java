package dev.hourglass;

/**
 * Base of every exception Hourglass throws. Unchecked: each subtype says what the caller can do
 * about it.
 */
public class HourglassException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * An error without a cause.
   *
   * @param message what went wrong, and what the caller can do
   */
  public HourglassException(String message) {
    super(message);
  }

  /**
   * An error with its cause.
   *
   * @param message what went wrong, and what the caller can do
   * @param cause the underlying failure
   */
  public HourglassException(String message, Throwable cause) {
    super(message, cause);
  }
}
