package dev.hourglass.spring.autoconfigure;

import dev.hourglass.Hourglass;
import dev.hourglass.spi.ScriptListener;
import dev.hourglass.spring.HourglassPayloadMapper;
import dev.hourglass.spring.HourglassTemplate;
import java.time.Duration;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Hourglass for a Spring Boot 3.5 or 4 application: the {@link Hourglass} client on the
 * application's Redis ({@code spring.data.redis.*}, unless {@code hourglass.redis-uri} is set), a
 * {@link HourglassTemplate}, the {@link dev.hourglass.spring.HourglassListener} methods' workers,
 * the {@code hourglass} health indicator and, with a {@code MeterRegistry}, the metrics of
 * docs/SERVER.md; with hourglass-forward, the forwarders {@code hourglass.queues.<name>.forward}
 * configures, and with hourglass-archive, the archive {@code hourglass.archive} configures. Ordered
 * after Boot's Jackson and metrics auto-configurations (both Boot 3 and Boot 4 names), whose beans
 * it uses when present.
 */
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
      "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration"
    })
@EnableConfigurationProperties(HourglassProperties.class)
@Import({
  HourglassJsonConfiguration.class,
  HourglassMetricsConfiguration.class,
  HourglassHealthConfiguration.class,
  HourglassForwardConfiguration.class,
  HourglassArchiveConfiguration.class
})
public class HourglassAutoConfiguration {

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  Hourglass hourglass(
      HourglassProperties properties,
      Environment environment,
      HourglassPayloadMapper mapper,
      ObjectProvider<ScriptListener> scriptListeners) {
    OptionalModules.check(
        properties,
        name -> ClassUtils.isPresent(name, HourglassAutoConfiguration.class.getClassLoader()));
    return new HourglassClientFactory(properties, Binder.get(environment))
        .build(mapper.codecFactory(), scriptListener(scriptListeners.orderedStream().toList()));
  }

  private static ScriptListener scriptListener(List<ScriptListener> listeners) {
    if (listeners.isEmpty()) {
      return ScriptListener.NONE;
    }
    if (listeners.size() == 1) {
      return listeners.get(0);
    }
    return (script, elapsed, failure) ->
        listeners.forEach(l -> l.scriptCalled(script, elapsed, failure));
  }

  @Bean
  @ConditionalOnMissingBean
  HourglassTemplate hourglassTemplate(Hourglass hourglass) {
    return new HourglassTemplate(hourglass);
  }

  @Bean
  static HourglassListenerBeanPostProcessor hourglassListenerBeanPostProcessor(
      Environment environment) {
    return new HourglassListenerBeanPostProcessor(environment);
  }

  @Bean
  HourglassListenerContainer hourglassListenerContainer(
      Hourglass hourglass,
      HourglassPayloadMapper mapper,
      HourglassListenerBeanPostProcessor listeners,
      ObjectProvider<DeliveryObserver> observer,
      HourglassProperties properties,
      Environment environment) {
    HourglassProperties.Worker worker = properties.getWorker();
    return new HourglassListenerContainer(
        hourglass,
        mapper,
        listeners,
        observer.getIfAvailable(() -> DeliveryObserver.NONE),
        new HourglassListenerContainer.Settings(
            worker.getConcurrency(),
            worker.getPrefetch(),
            shutdownTimeout(worker, Binder.get(environment)),
            properties.getListeners().isAutoStartup()));
  }

  /**
   * {@code hourglass.worker.shutdown-timeout}, else 90% of Spring's shutdown phase timeout, so that
   * the workers have closed before Spring gives up on the phase.
   */
  static Duration shutdownTimeout(HourglassProperties.Worker worker, Binder binder) {
    if (worker.getShutdownTimeout() != null) {
      return worker.getShutdownTimeout();
    }
    Duration phase =
        binder
            .bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class)
            .orElse(Duration.ofSeconds(30));
    return phase.multipliedBy(9).dividedBy(10);
  }
}
