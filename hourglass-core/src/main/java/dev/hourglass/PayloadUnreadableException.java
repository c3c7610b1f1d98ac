package dev.hourglass;

/**
 * This process cannot read a payload that was stored compressed: one compressed with a dictionary
 * where zstd-jni's native library does not load here, or one whose dictionary or frame is damaged.
 * Another process may read it: a worker fails the job by its backoff rather than killing it.
 */
public class PayloadUnreadableException extends HourglassException {
  private static final long serialVersionUID = 1L;

  /**
   * An unreadable payload.
   *
   * @param message why this process cannot open it
   */
  public PayloadUnreadableException(String message) {
    super(message);
  }
}
