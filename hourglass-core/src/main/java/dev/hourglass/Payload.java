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

  /**
   * A payload of a copy of these bytes, read with this codec.
   *
   * @param bytes the payload bytes (copied)
   * @param codec the codec {@link #value()} decodes with
   * @param <T> the payload type
   * @return the payload
   * @throws InvalidArgumentException when the bytes or the codec are null
   */
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
   *
   * @param stored the bytes as stored (copied)
   * @param why why they cannot be opened, e.g. a dictionary this process cannot use
   * @param codec the codec of the handle that read the job
   * @param <T> the payload type
   * @return the unreadable payload
   * @throws InvalidArgumentException when an argument is null
   */
  public static <T> Payload<T> unreadable(byte[] stored, String why, PayloadCodec<T> codec) {
    if (stored == null || why == null || codec == null) {
      throw new InvalidArgumentException(stored == null ? "stored" : "why", "is required");
    }
    return new Payload<>(stored.clone(), codec, why);
  }

  /**
   * Whether this process could open the payload ({@link #unreadable}).
   *
   * @return false for an unreadable payload
   */
  public boolean readable() {
    return unreadable == null;
  }

  /**
   * The same bytes, read with another codec.
   *
   * @param other the codec to read with
   * @param <U> its payload type
   * @return a payload sharing these bytes, readable or not as this one
   * @throws InvalidArgumentException when the codec is null
   */
  public <U> Payload<U> as(PayloadCodec<U> other) {
    if (other == null) {
      throw new InvalidArgumentException("codec", "is required");
    }
    return new Payload<>(bytes, other, unreadable);
  }

  /**
   * The payload decoded by the codec (decoded on each call).
   *
   * @return what the codec decodes from a copy of the bytes
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
   * A copy of the bytes, as enqueued.
   *
   * @return the copy
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

  /**
   * The length in bytes: as enqueued, or as stored for an {@link #unreadable} payload.
   *
   * @return the length
   */
  public int size() {
    return bytes.length;
  }

  /**
   * The bytes as UTF-8 text (malformed sequences replaced), for logs and display.
   *
   * @return the text; for an {@link #unreadable} payload, a bracketed note saying why
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
