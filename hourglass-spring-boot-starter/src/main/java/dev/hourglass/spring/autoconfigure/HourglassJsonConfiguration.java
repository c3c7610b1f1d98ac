package dev.hourglass.spring.autoconfigure;

import dev.hourglass.spring.HourglassPayloadMapper;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Chooses the {@link HourglassPayloadMapper}, first that applies: one the application declares;
 * the application's Jackson 3 {@code JsonMapper} (Boot 4); its Jackson 2 {@code ObjectMapper}
 * (Boot 3, or Boot 4 with spring-boot-jackson2); a default Jackson 3, then Jackson 2, mapper when
 * the application has the library but no mapper bean; else byte[] and String payloads only.
 */
@Configuration(proxyBeanMethods = false)
class HourglassJsonConfiguration {
  private static final String JACKSON3 = "tools.jackson.databind.json.JsonMapper";
  private static final String JACKSON2 = "com.fasterxml.jackson.databind.ObjectMapper";
  private static final String JACKSON3_CODECS = "dev.hourglass.jackson3.Jackson3Codecs";
  private static final String JACKSON2_CODECS = "dev.hourglass.jackson.JacksonCodecs";

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {JACKSON3, JACKSON3_CODECS})
  @ConditionalOnBean(type = JACKSON3)
  static class ApplicationJackson3 {
    @Bean
    @ConditionalOnMissingBean
    HourglassPayloadMapper hourglassPayloadMapper(tools.jackson.databind.json.JsonMapper mapper) {
      return new Jackson3PayloadMapper(mapper);
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {JACKSON2, JACKSON2_CODECS})
  @ConditionalOnBean(type = JACKSON2)
  static class ApplicationJackson2 {
    @Bean
    @ConditionalOnMissingBean
    HourglassPayloadMapper hourglassPayloadMapper(
        com.fasterxml.jackson.databind.ObjectMapper mapper) {
      return new Jackson2PayloadMapper(mapper);
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {JACKSON3, JACKSON3_CODECS})
  static class DefaultJackson3 {
    @Bean
    @ConditionalOnMissingBean
    HourglassPayloadMapper hourglassPayloadMapper() {
      return new Jackson3PayloadMapper(tools.jackson.databind.json.JsonMapper.builder().build());
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {JACKSON2, JACKSON2_CODECS})
  static class DefaultJackson2 {
    @Bean
    @ConditionalOnMissingBean
    HourglassPayloadMapper hourglassPayloadMapper() {
      return new Jackson2PayloadMapper(new com.fasterxml.jackson.databind.ObjectMapper());
    }
  }

  @Bean
  @ConditionalOnMissingBean
  HourglassPayloadMapper hourglassPayloadMapper() {
    return new PlainPayloadMapper();
  }
}
