package dev.hourglass;

/**
 * The payload is larger than the configured limit ({@link HourglassBuilder#maxPayloadBytes(int)}).
 */
public class PayloadTooLargeException extends InvalidArgumentException {
  private static final long serialVersionUID = 1L;

  /** The payload's size in bytes. */
  private final int size;

  /** The client's limit in bytes. */
  private final int limit;

  /**
   * A payload over the limit, for the field {@code payload}.
   *
   * @param size the payload's size in bytes
   * @param limit the client's limit in bytes
   */
  public PayloadTooLargeException(int size, int limit) {
    this("payload", size, limit);
  }

  /**
   * A payload over the limit, for a named field.
   *
   * @param field the field holding the payload, e.g. {@code specs[3].payload}
   * @param size the payload's size in bytes
   * @param limit the client's limit in bytes
   */
  public PayloadTooLargeException(String field, int size, int limit) {
    super(field, "is " + size + " bytes, over the limit of " + limit + " bytes");
    this.size = size;
    this.limit = limit;
  }

  /**
   * The same error for a payload nested under {@code parent}, still a {@code
   * PayloadTooLargeException}.
   *
   * @param parent e.g. {@code specs[3]}
   * @return the error for {@code parent.field}
   */
  @Override
  public PayloadTooLargeException under(String parent) {
    return new PayloadTooLargeException(parent + "." + field(), size, limit);
  }

  /**
   * The payload's size.
   *
   * @return bytes
   */
  public int size() {
    return size;
  }

  /**
   * The client's limit ({@link HourglassBuilder#maxPayloadBytes(int)}).
   *
   * @return bytes
   */
  public int limit() {
    return limit;
  }
}
