package dev.hourglass.spring.autoconfigure;

import dev.hourglass.Hourglass;
import dev.hourglass.micrometer.HourglassMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With a {@code MeterRegistry} in the application: the metrics of docs/SERVER.md in it. The client
 * reports every script call to {@link HourglassMetrics} (its script listener), listener methods
 * report each delivery's lateness ({@code mode=pull}), and {@link QueueMeters} keeps a set of
 * meters per queue.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(
    name = {
      "io.micrometer.core.instrument.MeterRegistry",
      "dev.hourglass.micrometer.HourglassMetrics"
    })
@ConditionalOnBean(type = "io.micrometer.core.instrument.MeterRegistry")
class HourglassMetricsConfiguration {

  @Bean
  @ConditionalOnMissingBean
  HourglassMetrics hourglassMetrics(MeterRegistry registry) {
    return new HourglassMetrics(registry);
  }

  @Bean
  DeliveryObserver hourglassDeliveryObserver(HourglassMetrics metrics) {
    return (queue, dueAt) -> metrics.delivered(queue, "pull", dueAt);
  }

  @Bean
  QueueMeters hourglassQueueMeters(
      HourglassMetrics metrics, Hourglass hourglass, HourglassProperties properties) {
    return new QueueMeters(metrics, hourglass, properties.getMetrics().getQueueRefresh());
  }
}
