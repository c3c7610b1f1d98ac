package dev.hourglass.spring.autoconfigure;

import dev.hourglass.Delivery;
import dev.hourglass.Hourglass;
import dev.hourglass.micrometer.HourglassMetrics;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * With hourglass-forward on the class path and a queue whose {@code forward} section is set: the
 * {@link HourglassForwarders}. With a {@code MeterRegistry}, each forwarder's publishes count in
 * {@code hourglass.delivery.lateness{mode=forward}}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = OptionalModules.FORWARDER)
@Conditional(HourglassForwardConfiguration.ForwardingConfigured.class)
class HourglassForwardConfiguration {

  @Bean
  HourglassForwarders hourglassForwarders(
      Hourglass hourglass,
      HourglassProperties properties,
      Environment environment,
      ObjectProvider<HourglassMetrics> metrics) {
    HourglassMetrics m = metrics.getIfAvailable();
    Function<String, Consumer<Delivery<?>>> onPublished =
        m == null ? queue -> job -> {} : m::forwarded;
    return new HourglassForwarders(
        hourglass,
        ForwardPlans.of(
            properties,
            hourglass,
            HourglassAutoConfiguration.shutdownTimeout(
                properties.getWorker(), Binder.get(environment)),
            onPublished));
  }

  /** Some {@code hourglass.queues.<name>.forward} is set. */
  static class ForwardingConfigured extends SpringBootCondition {
    @Override
    public ConditionOutcome getMatchOutcome(
        ConditionContext context, AnnotatedTypeMetadata metadata) {
      Map<String, HourglassQueueProperties> queues =
          Binder.get(context.getEnvironment())
              .bind(
                  "hourglass.queues", Bindable.mapOf(String.class, HourglassQueueProperties.class))
              .orElse(Map.of());
      boolean any = queues.values().stream().anyMatch(q -> q.getForward() != null);
      return any
          ? ConditionOutcome.match("a queue's forwarding is configured")
          : ConditionOutcome.noMatch("no hourglass.queues.<name>.forward is set");
    }
  }
}
