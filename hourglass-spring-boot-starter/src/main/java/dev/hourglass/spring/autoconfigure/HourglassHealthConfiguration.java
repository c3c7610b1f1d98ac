package dev.hourglass.spring.autoconfigure;

import dev.hourglass.Hourglass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code hourglass} health indicator, on Boot 4 ({@code org.springframework.boot.health}) or
 * Boot 3 ({@code org.springframework.boot.actuate.health}), whichever the application runs; off
 * with {@code management.health.hourglass.enabled=false}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(
    prefix = "management.health.hourglass",
    name = "enabled",
    matchIfMissing = true)
class HourglassHealthConfiguration {
  private static final String BOOT4_INDICATOR =
      "org.springframework.boot.health.contributor.HealthIndicator";
  private static final String BOOT3_INDICATOR =
      "org.springframework.boot.actuate.health.HealthIndicator";

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = BOOT4_INDICATOR)
  static class Boot4 {
    @Bean
    HourglassHealthCheck hourglassHealthCheck(Hourglass hourglass, HourglassProperties properties) {
      return new HourglassHealthCheck(hourglass, properties.getHealth().getTimeout());
    }

    @Bean
    @ConditionalOnMissingBean(name = "hourglassHealthIndicator")
    org.springframework.boot.health.contributor.HealthIndicator hourglassHealthIndicator(
        HourglassHealthCheck check) {
      return () -> {
        HourglassHealthCheck.Result r = check.check();
        return (r.up()
                ? org.springframework.boot.health.contributor.Health.up()
                : org.springframework.boot.health.contributor.Health.down())
            .withDetails(r.details())
            .build();
      };
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = BOOT3_INDICATOR)
  @ConditionalOnMissingClass(BOOT4_INDICATOR)
  static class Boot3 {
    @Bean
    HourglassHealthCheck hourglassHealthCheck(Hourglass hourglass, HourglassProperties properties) {
      return new HourglassHealthCheck(hourglass, properties.getHealth().getTimeout());
    }

    @Bean
    @ConditionalOnMissingBean(name = "hourglassHealthIndicator")
    org.springframework.boot.actuate.health.HealthIndicator hourglassHealthIndicator(
        HourglassHealthCheck check) {
      return () -> {
        HourglassHealthCheck.Result r = check.check();
        return (r.up()
                ? org.springframework.boot.actuate.health.Health.up()
                : org.springframework.boot.actuate.health.Health.down())
            .withDetails(r.details())
            .build();
      };
    }
  }
}
