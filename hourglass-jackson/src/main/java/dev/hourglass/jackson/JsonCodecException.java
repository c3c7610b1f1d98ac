package dev.hourglass.jackson;

/**
 * A payload that is not JSON of the codec's type, or a value the mapper cannot write, from the
 * codecs of {@link JacksonCodecs} and {@code Jackson3Codecs}. The message is one line that names
 * the type, e.g. {@code cannot decode payload as com.acme.OrderClosed: Unexpected character ('n'
 * (code 110)): expected a valid value (at $.items[0])}: Jackson's own message without the lines of
 * source location it appends, and the JSON path where it stopped. The Jackson exception, if any, is
 * the cause.
 */
public final class JsonCodecException extends Exception {
  private static final long serialVersionUID = 1L;

  /**
   * A payload or value the codec refused.
   *
   * @param message one line naming the type, Jackson's message and the JSON path
   * @param cause the Jackson exception, or null
   */
  public JsonCodecException(String message, Throwable cause) {
    super(message, cause);
  }
}
