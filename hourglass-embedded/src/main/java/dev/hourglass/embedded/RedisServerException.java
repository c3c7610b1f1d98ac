package dev.hourglass.embedded;

/** A Redis server could not be started, stopped or talked to. */
public class RedisServerException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates an exception with a message.
   *
   * @param message what went wrong, including the server's log tail where there is one
   */
  public RedisServerException(String message) {
    super(message);
  }

  /**
   * Creates an exception with a message and a cause.
   *
   * @param message what went wrong, including the server's log tail where there is one
   * @param cause the underlying failure
   */
  public RedisServerException(String message, Throwable cause) {
    super(message, cause);
  }
}
