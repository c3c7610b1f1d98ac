package dev.hourglass.spring.autoconfigure;

import dev.hourglass.jackson.Jackson3Codecs;
import dev.hourglass.spi.PayloadCodec;
import dev.hourglass.spi.PayloadCodecFactory;
import dev.hourglass.spring.HourglassPayloadMapper;
import java.lang.reflect.Type;
import java.util.Optional;
import org.springframework.beans.factory.ListableBeanFactory;
import tools.jackson.databind.ObjectMapper;

/** Payloads as JSON through a Jackson 3 mapper (Boot 4's). */
final class Jackson3PayloadMapper implements HourglassPayloadMapper {
  private final ObjectMapper mapper;
  private final Jackson3Codecs codecs;

  Jackson3PayloadMapper(ObjectMapper mapper) {
    this.mapper = mapper;
    this.codecs = Jackson3Codecs.of(mapper);
  }

  /** On the application's mapper bean, if it has exactly one (or a primary one). */
  static Optional<HourglassPayloadMapper> ofApplication(ListableBeanFactory beans) {
    return Optional.ofNullable(
            beans.getBeanProvider(tools.jackson.databind.json.JsonMapper.class).getIfUnique())
        .<HourglassPayloadMapper>map(Jackson3PayloadMapper::new);
  }

  /** On the default mapper of hourglass-jackson. */
  static HourglassPayloadMapper standalone() {
    return new Jackson3PayloadMapper(Jackson3Codecs.create().mapper());
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
