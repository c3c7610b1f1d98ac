package dev.hourglass.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.testing.RedisExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * Which Boot these tests run on, and that the application's own JSON mapper is used: the module
 * running them says what to expect (the starter: Boot 4 and Jackson 3; the boot3 module: Boot 3.5
 * and Jackson 2).
 */
class BootVersionTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class App {}

  @Test
  void theExpectedBootAndMapperRun() {
    assertThat(SpringBootVersion.getVersion())
        .isEqualTo(System.getProperty("expected.boot.version"));
    try (ConfigurableApplicationContext app =
        TestApps.run(List.of(App.class), "hourglass.redis-uri=" + redis.uri())) {
      assertThat(app.getBean(HourglassPayloadMapper.class).getClass().getSimpleName())
          .isEqualTo(System.getProperty("expected.payload.mapper"));
    }
  }
}
