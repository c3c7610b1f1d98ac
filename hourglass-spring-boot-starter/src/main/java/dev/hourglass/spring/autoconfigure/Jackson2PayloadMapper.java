package dev.hourglass.spring.autoconfigure;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hourglass.jackson.JacksonCodecs;
import dev.hourglass.spi.PayloadCodec;
import dev.hourglass.spi.PayloadCodecFactory;
import dev.hourglass.spring.HourglassPayloadMapper;
import java.lang.reflect.Type;
import java.util.Optional;
import org.springframework.beans.factory.ListableBeanFactory;

/** Payloads as JSON through a Jackson 2 mapper (Boot 3's). */
final class Jackson2PayloadMapper implements HourglassPayloadMapper {
  private final ObjectMapper mapper;
  private final JacksonCodecs codecs;

  Jackson2PayloadMapper(ObjectMapper mapper) {
    this.mapper = mapper;
    this.codecs = JacksonCodecs.of(mapper);
  }

  /** On the application's mapper bean, if it has exactly one (or a primary one). */
  static Optional<HourglassPayloadMapper> ofApplication(ListableBeanFactory beans) {
    return Optional.ofNullable(
            beans.getBeanProvider(com.fasterxml.jackson.databind.ObjectMapper.class).getIfUnique())
        .<HourglassPayloadMapper>map(Jackson2PayloadMapper::new);
  }

  /** On the default mapper of hourglass-jackson. */
  static HourglassPayloadMapper standalone() {
    return new Jackson2PayloadMapper(JacksonCodecs.defaultMapper());
  }

  @Override
  public PayloadCodecFactory codecFactory() {
    return codecs;
  }

  @Override
  public PayloadCodec<Object> codecFor(Type type) {
    return codecs.codec(mapper.getTypeFactory().constructType(type));
  }
}
