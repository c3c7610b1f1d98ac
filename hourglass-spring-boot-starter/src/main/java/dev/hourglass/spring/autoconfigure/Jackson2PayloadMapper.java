package dev.hourglass.spring.autoconfigure;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hourglass.jackson.JacksonCodecs;
import dev.hourglass.spi.PayloadCodec;
import dev.hourglass.spi.PayloadCodecFactory;
import dev.hourglass.spring.HourglassPayloadMapper;
import java.lang.reflect.Type;

/** Payloads as JSON through a Jackson 2 mapper (Boot 3's). */
final class Jackson2PayloadMapper implements HourglassPayloadMapper {
  private final ObjectMapper mapper;
  private final JacksonCodecs codecs;

  Jackson2PayloadMapper(ObjectMapper mapper) {
    this.mapper = mapper;
    this.codecs = new JacksonCodecs(mapper);
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
