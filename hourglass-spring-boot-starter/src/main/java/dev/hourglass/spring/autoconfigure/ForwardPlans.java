package dev.hourglass.spring.autoconfigure;

import dev.hourglass.Delivery;
import dev.hourglass.Hourglass;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.forward.AmqpTarget;
import dev.hourglass.forward.ForwarderOptions;
import dev.hourglass.forward.KafkaTarget;
import dev.hourglass.forward.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Turns {@code hourglass.queues.<name>.forward.*} into forwarders' targets and options, checked as
 * the server checks its {@code amqp} and {@code kafka} deliveries; a value they refuse fails
 * startup naming the property.
 */
final class ForwardPlans {
  /** One queue's forwarding, checked, not started. */
  record Plan(String queue, Target target, ForwarderOptions options) {}

  private ForwardPlans() {}

  /**
   * The plans of every queue with a {@code forward} section, in configuration order.
   *
   * @param hourglass the client, which checks each queue name
   * @param shutdownTimeout how long closing a forwarder waits for the broker's confirms
   * @param onPublished what each queue's forwarder reports its publishes to, for metrics
   */
  static List<Plan> of(
      HourglassProperties properties,
      Hourglass hourglass,
      Duration shutdownTimeout,
      Function<String, Consumer<Delivery<?>>> onPublished) {
    List<Plan> plans = new ArrayList<>();
    for (Map.Entry<String, HourglassQueueProperties> e : properties.getQueues().entrySet()) {
      HourglassQueueProperties.Forward forward = e.getValue().getForward();
      if (forward == null) {
        continue;
      }
      String queue = e.getKey();
      String prefix = "hourglass.queues." + queue;
      try {
        hourglass.queue(queue);
      } catch (InvalidArgumentException ex) {
        throw invalid(prefix, queue, ex);
      }
      String forwardPrefix = prefix + ".forward.";
      try {
        ForwarderOptions options =
            ForwarderOptions.builder()
                .concurrency(forward.getConcurrency())
                .shutdownTimeout(shutdownTimeout)
                .onPublished(onPublished.apply(queue))
                .build();
        plans.add(new Plan(queue, target(forward, forwardPrefix), options));
      } catch (InvalidArgumentException ex) {
        throw invalid(forwardPrefix + property(ex.field()), value(forward, ex.field()), ex);
      }
    }
    return plans;
  }

  private static Target target(HourglassQueueProperties.Forward f, String prefix) {
    HourglassQueueProperties.Amqp amqp = f.getAmqp();
    HourglassQueueProperties.Kafka kafka = f.getKafka();
    if ((amqp == null) == (kafka == null)) {
      throw new InvalidConfigurationPropertyValueException(
          prefix.substring(0, prefix.length() - 1),
          null,
          "Give exactly one of " + prefix + "amqp.* and " + prefix + "kafka.*.");
    }
    if (amqp != null) {
      return AmqpTarget.builder()
          .uri(amqp.getUri())
          .exchange(amqp.getExchange())
          .routingKey(amqp.getRoutingKey())
          .timeout(f.getTimeout())
          .build();
    }
    return KafkaTarget.builder()
        .bootstrapServers(kafka.getBootstrapServers())
        .topic(kafka.getTopic())
        .keyById(kafka.getKey() == HourglassQueueProperties.Key.ID)
        .timeout(f.getTimeout())
        .build();
  }

  /** The property, under {@code forward.}, behind a field a target or the options named. */
  private static String property(String field) {
    return switch (field) {
      case "uri", "exchange" -> "amqp." + field;
      case "routingKey" -> "amqp.routing-key";
      case "bootstrapServers" -> "kafka.bootstrap-servers";
      case "topic" -> "kafka.topic";
      default -> field; // concurrency, timeout
    };
  }

  /** The refused value as the failure may show it: an AMQP URI's password masked. */
  private static String value(HourglassQueueProperties.Forward f, String field) {
    return switch (field) {
      case "uri" -> f.getAmqp().getUri() == null ? null : AmqpTarget.mask(f.getAmqp().getUri());
      case "exchange" -> f.getAmqp().getExchange();
      case "routingKey" -> f.getAmqp().getRoutingKey();
      case "bootstrapServers" -> f.getKafka().getBootstrapServers();
      case "topic" -> f.getKafka().getTopic();
      case "concurrency" -> Integer.toString(f.getConcurrency());
      case "timeout" -> String.valueOf(f.getTimeout());
      default -> null;
    };
  }

  private static InvalidConfigurationPropertyValueException invalid(
      String property, String value, InvalidArgumentException cause) {
    InvalidConfigurationPropertyValueException failure =
        new InvalidConfigurationPropertyValueException(property, value, cause.getMessage());
    failure.initCause(cause);
    return failure;
  }
}
