package dev.hourglass;

import dev.hourglass.spi.PayloadCodec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A job's payload as stored: immutable bytes and the codec of the queue handle that read them.
 * {@link #value()} decodes; {@link #bytes()} returns a copy.
 *
 * @param <T> the payload type of the queue handle
 */
public final class Payload<T> {
  private final byte[] bytes;
  private final PayloadCodec<T> codec;

  private Payload(byte[] bytes, PayloadCodec<T> codec) {
    this.bytes = bytes;
    this.codec = codec;
  }

  /** A payload of a copy of these bytes, read with this codec. */
  public static <T> Payload<T> of(byte[] bytes, PayloadCodec<T> codec) {
    if (bytes == null || codec == null) {
      throw new InvalidArgumentException(bytes == null ? "payload" : "codec", "is required");
    }
    return new Payload<>(bytes.clone(), codec);
  }

  /** The same bytes, read with another codec. */
  public <U> Payload<U> as(PayloadCodec<U> other) {
    if (other == null) {
      throw new InvalidArgumentException("codec", "is required");
    }
    return new Payload<>(bytes, other);
  }

  /**
   * The payload decoded by the codec (decoded on each call).
   *
   * @throws PayloadDecodingException when the codec refuses the bytes
   */
  public T value() {
    try {
      return codec.decode(bytes.clone());
    } catch (Exception e) {
      throw new PayloadDecodingException(codec, e);
    }
  }

  /** A copy of the bytes. */
  public byte[] bytes() {
    return bytes.clone();
  }

  /** The length in bytes. */
  public int size() {
    return bytes.length;
  }

  /** The bytes as UTF-8 text (malformed sequences replaced), for logs and display. */
  public String asString() {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** Equal when the bytes are equal (whatever the codec). */
  @Override
  public boolean equals(Object o) {
    return o instanceof Payload<?> p && Arrays.equals(bytes, p.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "Payload[" + bytes.length + " bytes]";
  }
}
