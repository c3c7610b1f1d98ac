package dev.hourglass;

/** Bad input, refused before anything was written. {@link #field()} names the offending field. */
public class InvalidArgumentException extends HourglassException {
  private static final long serialVersionUID = 1L;
  private final String field;

  public InvalidArgumentException(String field, String message) {
    super(field + ": " + message);
    this.field = field;
  }

  /** The name of the field or argument that was refused, e.g. {@code "delay"} or {@code "backoff.baseMs"}. */
  public String field() {
    return field;
  }
}
