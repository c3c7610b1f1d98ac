package dev.hourglass;

/**
 * The Redis data under this key prefix was written by a different Hourglass layout version.
 * Hourglass refuses to touch it rather than misread it; run the migration that ships with the newer
 * version, or use another prefix.
 */
public class LayoutVersionException extends HourglassException {
  private static final long serialVersionUID = 1L;

  /**
   * A layout this code does not know.
   *
   * @param message names the stored version and this code's
   */
  public LayoutVersionException(String message) {
    super(message);
  }
}
