package dev.hourglass;

import dev.hourglass.spi.PayloadCodec;

/**
 * A payload's bytes are not a value of the queue handle's type. A worker never hands such a job to
 * its handler: the job goes to dead letters with this message as its last error.
 */
public class PayloadDecodingException extends HourglassException {
  private static final long serialVersionUID = 1L;

  /**
   * A payload the codec refused.
   *
   * @param codec the codec that refused the bytes
   * @param cause what it threw
   */
  public PayloadDecodingException(PayloadCodec<?> codec, Throwable cause) {
    super(
        "cannot decode the payload with codec "
            + codec
            + ": "
            + (cause.getMessage() != null ? cause.getMessage() : cause.toString()),
        cause);
  }
}
