package dev.hourglass.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.hourglass.Hourglass;
import dev.hourglass.Queue;
import dev.hourglass.forward.AmqpTarget;
import dev.hourglass.forward.Forwarder;
import dev.hourglass.forward.ForwarderOptions;
import dev.hourglass.testing.RabbitMqBroker;
import dev.hourglass.testing.RedisExtension;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A forwarder reporting to {@link HourglassMetrics#forwarded}, against a real RabbitMQ: each job it
 * publishes counts in {@code hourglass_delivery_lateness_seconds{mode="forward"}}, as on the
 * server.
 */
class ForwardedMetersTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();
  static RabbitMqBroker broker;

  @BeforeAll
  static void startRabbit() {
    broker = RabbitMqBroker.create();
  }

  @AfterAll
  static void stopRabbit() {
    if (broker != null) {
      broker.close();
    }
  }

  @Test
  void publishedJobsCountAsForwardDeliveries() throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(broker.uri());
    try (Connection c = factory.newConnection();
        Channel ch = c.createChannel()) {
      ch.exchangeDeclare("metered", "direct", true);
      ch.queueDeclare("metered.sink", true, false, false, null);
      ch.queueBind("metered.sink", "metered", "close");
    }
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    HourglassMetrics metrics = new HourglassMetrics(registry);
    try (Hourglass hourglass = Hourglass.builder().redisUri(redis.uri()).build()) {
      Queue<byte[]> queue = hourglass.queue("metered");
      for (int i = 0; i < 3; i++) {
        queue.enqueue(("{\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8), Duration.ZERO);
      }
      AmqpTarget target =
          AmqpTarget.builder().uri(broker.uri()).exchange("metered").routingKey("close").build();
      ForwarderOptions options =
          ForwarderOptions.builder().onPublished(metrics.forwarded("metered")).build();
      try (Forwarder f = Forwarder.start(queue, target, options)) {
        await().atMost(Duration.ofSeconds(60)).until(() -> queue.stats().counters().acked() == 3);
      }
    }
    assertThat(registry.scrape())
        .contains(
            "hourglass_delivery_lateness_seconds_count{mode=\"forward\",queue=\"metered\"} 3");
  }
}
