package dev.hourglass.spring.autoconfigure;

import dev.hourglass.jackson3.Jackson3Codecs;
import dev.hourglass.spi.PayloadCodec;
import dev.hourglass.spi.PayloadCodecFactory;
import dev.hourglass.spring.HourglassPayloadMapper;
import java.lang.reflect.Type;
import tools.jackson.databind.ObjectMapper;

/** Payloads as JSON through a Jackson 3 mapper (Boot 4's). */
final class Jackson3PayloadMapper implements HourglassPayloadMapper {
  private final ObjectMapper mapper;
  private final Jackson3Codecs codecs;

  Jackson3PayloadMapper(ObjectMapper mapper) {
    this.mapper = mapper;
    this.codecs = new Jackson3Codecs(mapper);
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
