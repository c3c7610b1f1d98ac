package dev.hourglass;

/**
 * Redis could not be reached, or did not answer within the command timeout. When {@link
 * #outcomeUnknown()} is false nothing was sent; when it is true the command may or may not have
 * taken effect (the connection dropped after sending it), so check, e.g. with {@link
 * Queue#get(String)} for the id you enqueued.
 */
public class RedisUnavailableException extends HourglassException {
  private static final long serialVersionUID = 1L;
  private final boolean outcomeUnknown;

  public RedisUnavailableException(String message, boolean outcomeUnknown, Throwable cause) {
    super(message, cause);
    this.outcomeUnknown = outcomeUnknown;
  }

  public boolean outcomeUnknown() {
    return outcomeUnknown;
  }
}
