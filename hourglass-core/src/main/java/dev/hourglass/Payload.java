package dev.hourglass;

import dev.hourglass.spi.PayloadCodec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A job's payload as enqueued: immutable bytes and the codec of the queue handle that read them.
 * {@link #value()} decodes; {@link #bytes()} returns a copy. A payload stored compressed is handed
 * out opened; one this process cannot open is {@link #unreadable}.
 *
 * @param <T> the payload type of the queue handle
 */
public final class Payload<T> {
  private final byte[] bytes;
  private final PayloadCodec<T> codec;
  private final String unreadable; // null, or why the bytes (as stored) cannot be opened

  private Payload(byte[] bytes, PayloadCodec<T> codec, String unreadable) {
    this.bytes = bytes;
    this.codec = codec;
    this.unreadable = unreadable;
  }

  /** A payload of a copy of these bytes, read with this codec. */
  public static <T> Payload<T> of(byte[] bytes, PayloadCodec<T> codec) {
    if (bytes == null || codec == null) {
      throw new InvalidArgumentException(bytes == null ? "payload" : "codec", "is required");
    }
    return new Payload<>(bytes.clone(), codec, null);
  }

  /**
   * A payload stored compressed that this process cannot open, for the reason given: {@link
   * #value()} and {@link #bytes()} throw {@link PayloadUnreadableException}; {@link #size()} is the
   * stored size.
   */
  public static <T> Payload<T> unreadable(byte[] stored, String why, PayloadCodec<T> codec) {
    if (stored == null || why == null || codec == null) {
      throw new InvalidArgumentException(stored == null ? "stored" : "why", "is required");
    }
    return new Payload<>(stored.clone(), codec, why);
  }

  /** Whether this process could open the payload ({@link #unreadable}). */
  public boolean readable() {
    return unreadable == null;
  }

  /** The same bytes, read with another codec. */
  public <U> Payload<U> as(PayloadCodec<U> other) {
    if (other == null) {
      throw new InvalidArgumentException("codec", "is required");
    }
    return new Payload<>(bytes, other, unreadable);
  }

  /**
   * The payload decoded by the codec (decoded on each call).
   *
   * @throws PayloadDecodingException when the codec refuses the bytes
   * @throws PayloadUnreadableException when the payload is {@link #unreadable}
   */
  public T value() {
    checkReadable();
    try {
      return codec.decode(bytes.clone());
    } catch (Exception e) {
      throw new PayloadDecodingException(codec, e);
    }
  }

  /**
   * A copy of the bytes.
   *
   * @throws PayloadUnreadableException when the payload is {@link #unreadable}
   */
  public byte[] bytes() {
    checkReadable();
    return bytes.clone();
  }

  private void checkReadable() {
    if (unreadable != null) {
      throw new PayloadUnreadableException(unreadable);
    }
  }

  /** The length in bytes. */
  public int size() {
    return bytes.length;
  }

  /**
   * The bytes as UTF-8 text (malformed sequences replaced), for logs and display; for an {@link
   * #unreadable} payload, a bracketed note saying why.
   */
  public String asString() {
    return unreadable == null
        ? new String(bytes, StandardCharsets.UTF_8)
        : "[unreadable payload: " + unreadable + "]";
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
    return unreadable == null
        ? "Payload[" + bytes.length + " bytes]"
        : "Payload[" + bytes.length + " bytes, unreadable: " + unreadable + "]";
  }
}
