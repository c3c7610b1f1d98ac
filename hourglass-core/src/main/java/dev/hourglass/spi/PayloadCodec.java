package dev.hourglass.spi;

/**
 * Turns a queue's payload type into bytes and back. A queue handle typed by payload ({@code
 * hourglass.queue("orders", OrderClosed.class)}) encodes what it enqueues with its codec and
 * decodes what it reads. A payload that {@link #decode} refuses never reaches a worker's handler:
 * the worker sends the job to dead letters with the decoder's message as its last error, as
 * retrying cannot help. A low-level consumer ({@code Queue.claim}) gets a {@code
 * PayloadDecodingException} from {@code payload().value()} and settles the job itself.
 *
 * <p>Implementations must be thread-safe. Built in: {@link #bytes()} and {@link #utf8()}; a JSON
 * codec for Jackson is in the {@code hourglass-jackson} module.
 *
 * @param <T> the payload type
 */
public interface PayloadCodec<T> {

  /**
   * The bytes of a payload.
   *
   * @param value the payload, not null
   * @return its bytes; the caller does not change them
   * @throws Exception when the value cannot be encoded (the enqueue is refused with an {@code
   *     InvalidArgumentException}, nothing written)
   */
  byte[] encode(T value) throws Exception;

  /**
   * The payload of these bytes.
   *
   * @param bytes the bytes as enqueued, a copy the codec may keep
   * @return the payload
   * @throws Exception when the bytes are not a payload of this type (a worker sends the job dead;
   *     {@code Payload.value()} throws it wrapped in a {@code PayloadDecodingException})
   */
  T decode(byte[] bytes) throws Exception;

  /**
   * The bytes as they are.
   *
   * @return the codec of {@code byte[]} payloads
   */
  static PayloadCodec<byte[]> bytes() {
    return BuiltinCodecs.BYTES;
  }

  /**
   * Text as UTF-8; bytes that are not valid UTF-8 are refused when decoding.
   *
   * @return the codec of {@code String} payloads
   */
  static PayloadCodec<String> utf8() {
    return BuiltinCodecs.UTF8;
  }
}
