package dev.hourglass.embedded;

/** The server answered a command with a RESP error reply (a line starting with {@code -}). */
public final class RedisCommandException extends RedisServerException {

  private static final long serialVersionUID = 1L;

  /** The error text without the leading {@code -}. */
  private final String errorReply;

  /**
   * Creates an exception for an error reply.
   *
   * @param errorReply the error text without the leading {@code -}, e.g. {@code "ERR unknown
   *     command"}
   */
  public RedisCommandException(String errorReply) {
    super("Redis replied with an error: " + errorReply);
    this.errorReply = errorReply;
  }

  /**
   * Returns the error text without the leading {@code -}.
   *
   * @return the error reply, e.g. {@code "LOADING Redis is loading the dataset in memory"}
   */
  public String errorReply() {
    return errorReply;
  }
}
