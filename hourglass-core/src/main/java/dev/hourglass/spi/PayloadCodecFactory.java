package dev.hourglass.spi;

import java.util.Optional;

/**
 * Finds the codec for a payload type, for {@code hourglass.queue(name, type)}. Set one on the
 * builder ({@code HourglassBuilder.codecs}); {@code byte[]} and {@code String} need none. The
 * {@code hourglass-jackson} module has one for JSON.
 */
@FunctionalInterface
public interface PayloadCodecFactory {

  /** The codec for this type, or empty when this factory has none. */
  <T> Optional<PayloadCodec<T>> codecFor(Class<T> type);
}
