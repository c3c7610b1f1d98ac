package dev.hourglass;

/**
 * Redis could not be reached, or did not answer within the command timeout. When {@link
 * #outcomeUnknown()} is false nothing was sent; when it is true the command may or may not have
 * taken effect (the connection dropped after sending it), so check, e.g. with {@link
 * Queue#get(String)} for the id you enqueued.
 */
public class RedisUnavailableException extends HourglassException {
  private static final long serialVersionUID = 1L;

  /** Whether the command may have taken effect. */
  private final boolean outcomeUnknown;

  /**
   * Redis could not take a command.
   *
   * @param message what happened
   * @param outcomeUnknown true when the command may have taken effect
   * @param cause the client's failure, or null
   */
  public RedisUnavailableException(String message, boolean outcomeUnknown, Throwable cause) {
    super(message, cause);
    this.outcomeUnknown = outcomeUnknown;
  }

  /**
   * Whether the command may have taken effect.
   *
   * @return false when nothing was sent; true when the connection dropped or timed out after
   *     sending, so the caller should check before retrying
   */
  public boolean outcomeUnknown() {
    return outcomeUnknown;
  }
}
