package dev.hourglass.spring.autoconfigure;

import dev.hourglass.spi.PayloadCodec;
import dev.hourglass.spi.PayloadCodecFactory;
import dev.hourglass.spring.HourglassPayloadMapper;
import java.lang.reflect.Type;
import java.util.Optional;

/** Without Jackson on the classpath: {@code byte[]} and {@code String} payloads only. */
final class PlainPayloadMapper implements HourglassPayloadMapper {

  @Override
  public PayloadCodecFactory codecFactory() {
    return new PayloadCodecFactory() {
      @Override
      public <T> Optional<PayloadCodec<T>> codecFor(Class<T> type) {
        return Optional.empty();
      }
    };
  }

  @Override
  public PayloadCodec<Object> codecFor(Type type) {
    throw new IllegalArgumentException(
        "No codec for payload type "
            + type.getTypeName()
            + ": without Jackson on the classpath, payloads are byte[] or String");
  }
}
