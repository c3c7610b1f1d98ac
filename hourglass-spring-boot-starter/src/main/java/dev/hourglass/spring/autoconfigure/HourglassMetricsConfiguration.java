package dev.hourglass.spring.autoconfigure;

import dev.hourglass.Hourglass;
import dev.hourglass.micrometer.ArchiveMeters;
import dev.hourglass.micrometer.HourglassMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With a {@code MeterRegistry} in the application: the metrics of docs/SERVER.md in it. The client
 * reports every script call to {@link HourglassMetrics} (its script listener), listener methods
 * report each delivery's lateness ({@code mode=pull}), forwarders theirs ({@code mode=forward}),
 * {@link QueueMeters} keeps a set of meters per queue, and with the archive on, {@link
 * ArchiveMeters} meter its outbox and rows.
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
      HourglassMetrics metrics,
      Hourglass hourglass,
      HourglassProperties properties,
      ObjectProvider<QueueMeters.NewQueues> others) {
    return new QueueMeters(
        metrics,
        hourglass,
        properties.getMetrics().getQueueRefresh(),
        others.orderedStream().toList());
  }

  /** With the archive on: its meters, as its listener, with outbox meters for new queues. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = OptionalModules.ARCHIVE)
  @ConditionalOnProperty(prefix = "hourglass.archive", name = "enabled", havingValue = "true")
  static class Archive {
    @Bean
    @ConditionalOnMissingBean
    ArchiveMeters hourglassArchiveMeters(MeterRegistry registry) {
      return new ArchiveMeters(registry);
    }

    @Bean
    QueueMeters.NewQueues hourglassArchiveQueueMeters(ArchiveMeters meters) {
      return meters::registerQueues;
    }
  }
}
