package dev.hourglass.spi;

import java.util.Optional;

/**
 * Finds the codec for a payload type, for {@code hourglass.queue(name, type)}. Set one on the
 * builder ({@code HourglassBuilder.codecs}); {@code byte[]} and {@code String} need none. The
 * {@code hourglass-jackson} module has one for JSON.
 */
@FunctionalInterface
public interface PayloadCodecFactory {

  /**
   * The codec for this type.
   *
   * @param type the payload type a queue handle asks for
   * @param <T> that type
   * @return the codec, or empty when this factory has none (the handle is then refused with {@code
   *     InvalidArgumentException})
   */
  <T> Optional<PayloadCodec<T>> codecFor(Class<T> type);
}
