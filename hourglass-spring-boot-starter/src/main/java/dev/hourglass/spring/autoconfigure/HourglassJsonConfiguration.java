package dev.hourglass.spring.autoconfigure;

import dev.hourglass.spring.HourglassPayloadMapper;
import java.util.Optional;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

/**
 * Chooses the {@link HourglassPayloadMapper}, first that applies: one the application declares; the
 * application's Jackson 3 {@code JsonMapper} (Boot 4); its Jackson 2 {@code ObjectMapper} (Boot 3,
 * or Boot 4 with spring-boot-jackson2); a default Jackson 3, then Jackson 2, mapper when the
 * application has the library but no mapper bean; else byte[] and String payloads only. The choice
 * is made when the bean is created, once every bean definition is known, and the Jackson classes
 * are touched only when they are on the class path.
 */
@Configuration(proxyBeanMethods = false)
class HourglassJsonConfiguration {
  private static final String[] JACKSON3 = {
    "tools.jackson.databind.json.JsonMapper", "dev.hourglass.jackson.Jackson3Codecs"
  };
  private static final String[] JACKSON2 = {
    "com.fasterxml.jackson.databind.ObjectMapper", "dev.hourglass.jackson.JacksonCodecs"
  };

  @Bean
  @ConditionalOnMissingBean
  HourglassPayloadMapper hourglassPayloadMapper(ListableBeanFactory beans) {
    ClassLoader loader = HourglassJsonConfiguration.class.getClassLoader();
    boolean jackson3 = present(JACKSON3, loader);
    boolean jackson2 = present(JACKSON2, loader);
    Optional<HourglassPayloadMapper> application = Optional.empty();
    if (jackson3) {
      application = Jackson3PayloadMapper.ofApplication(beans);
    }
    if (application.isEmpty() && jackson2) {
      application = Jackson2PayloadMapper.ofApplication(beans);
    }
    if (application.isPresent()) {
      return application.get();
    }
    if (jackson3) {
      return Jackson3PayloadMapper.standalone();
    }
    return jackson2 ? Jackson2PayloadMapper.standalone() : new PlainPayloadMapper();
  }

  private static boolean present(String[] classes, ClassLoader loader) {
    for (String name : classes) {
      if (!ClassUtils.isPresent(name, loader)) {
        return false;
      }
    }
    return true;
  }
}
