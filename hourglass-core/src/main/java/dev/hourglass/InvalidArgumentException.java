package dev.hourglass;

/** Bad input, refused before anything was written. {@link #field()} names the offending field. */
public class InvalidArgumentException extends HourglassException {
  private static final long serialVersionUID = 1L;

  /** The refused field or argument. */
  private final String field;

  /** What is wrong with it. */
  private final String reason;

  /**
   * A refused argument; the message is {@code field + ": " + reason}.
   *
   * @param field the name of the field or argument, e.g. {@code "delay"}
   * @param reason what is wrong with it, e.g. {@code "must not be negative"}
   */
  public InvalidArgumentException(String field, String reason) {
    super(field + ": " + reason);
    this.field = field;
    this.reason = reason;
  }

  /**
   * What is wrong with the field, without the field name, e.g. {@code "must not be negative"}.
   *
   * @return the reason
   */
  public String reason() {
    return reason;
  }

  /**
   * The same error for a field nested under {@code parent}, e.g. {@code specs[3]} + {@code payload}
   * -> {@code specs[3].payload}. Subclasses keep their type.
   *
   * @param parent the enclosing field
   * @return a new exception for {@code parent.field}
   */
  public InvalidArgumentException under(String parent) {
    return new InvalidArgumentException(parent + "." + field, reason);
  }

  /**
   * The name of the field or argument that was refused, e.g. {@code "delay"} or {@code
   * "backoff.baseMs"}.
   *
   * @return the field name
   */
  public String field() {
    return field;
  }
}
