package dev.hourglass;

/**
 * The payload is larger than the configured limit ({@link HourglassBuilder#maxPayloadBytes(int)}).
 */
public class PayloadTooLargeException extends InvalidArgumentException {
  private static final long serialVersionUID = 1L;
  private final int size;
  private final int limit;

  public PayloadTooLargeException(int size, int limit) {
    this("payload", size, limit);
  }

  public PayloadTooLargeException(String field, int size, int limit) {
    super(field, "is " + size + " bytes, over the limit of " + limit + " bytes");
    this.size = size;
    this.limit = limit;
  }

  @Override
  public PayloadTooLargeException under(String parent) {
    return new PayloadTooLargeException(parent + "." + field(), size, limit);
  }

  public int size() {
    return size;
  }

  public int limit() {
    return limit;
  }
}
