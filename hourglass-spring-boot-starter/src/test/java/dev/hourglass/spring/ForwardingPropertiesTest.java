package dev.hourglass.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.hourglass.EnqueueResult;
import dev.hourglass.testing.KafkaBroker;
import dev.hourglass.testing.RabbitMqBroker;
import dev.hourglass.testing.RedisExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * {@code hourglass.queues.<name>.forward.*} alone forwards a queue's jobs, at their time, to a real
 * RabbitMQ node and an in-process Kafka broker, counted as {@code mode="forward"} deliveries; bad
 * values and unknown keys fail startup naming the property.
 */
class ForwardingPropertiesTest {
  /** Redis and this JVM read one machine clock in whole milliseconds. */
  private static final long GRANULARITY_MS = 1;

  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();
  static RabbitMqBroker rabbit;
  static KafkaBroker kafka;

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class App {}

  @BeforeAll
  static void startBrokers() {
    rabbit = RabbitMqBroker.create();
    kafka = KafkaBroker.create();
  }

  @AfterAll
  static void stopBrokers() {
    if (rabbit != null) {
      rabbit.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  private static ConfigurableApplicationContext run(String... properties) {
    String[] all = new String[properties.length + 1];
    all[0] = "hourglass.redis-uri=" + redis.uri();
    System.arraycopy(properties, 0, all, 1, properties.length);
    return TestApps.run(List.of(App.class), all);
  }

  @Test
  void aJobDueLaterArrivesInRabbitMqAtItsTime() throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(rabbit.uri());
    try (Connection c = factory.newConnection();
        Channel ch = c.createChannel()) {
      ch.exchangeDeclare("orders", "direct", true);
      ch.queueDeclare("orders.close", true, false, false, null);
      ch.queueBind("orders.close", "orders", "close");
      try (ConfigurableApplicationContext app =
          run(
              "hourglass.queues.orders.forward.amqp.uri=" + rabbit.uri(),
              "hourglass.queues.orders.forward.amqp.exchange=orders",
              "hourglass.queues.orders.forward.amqp.routing-key=close")) {
        EnqueueResult job =
            app.getBean(HourglassTemplate.class)
                .job("orders", "{\"order\":42}")
                .delay(Duration.ofSeconds(2))
                .enqueue();
        AtomicReference<GetResponse> got = new AtomicReference<>();
        await()
            .atMost(TestApps.LIVENESS)
            .pollInterval(Duration.ofMillis(10))
            .until(
                () -> {
                  got.set(ch.basicGet("orders.close", true));
                  return got.get() != null;
                });
        long arrivedAt = System.currentTimeMillis();
        GetResponse message = got.get();
        assertThat(arrivedAt).isGreaterThanOrEqualTo(job.runAt().toEpochMilli() - GRANULARITY_MS);
        assertThat(message.getProps().getMessageId()).isEqualTo(job.id());
        assertThat(message.getProps().getHeaders().get("hourglass-queue").toString())
            .isEqualTo("orders");
        assertThat(new String(message.getBody(), StandardCharsets.UTF_8))
            .isEqualTo("{\"order\":42}");
        await()
            .atMost(TestApps.LIVENESS)
            .until(
                () ->
                    TestApps.get(app, "/actuator/prometheus")
                        .body()
                        .contains(
                            "hourglass_delivery_lateness_seconds_count{mode=\"forward\",queue=\"orders\"} 1"));
      }
    }
  }

  @Test
  void aJobDueLaterArrivesInKafkaAtItsTime() throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      admin
          .createTopics(Set.of(new NewTopic("reminders", Optional.of(1), Optional.empty())))
          .all()
          .get();
    }
    try (KafkaConsumer<byte[], byte[]> consumer =
            new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        ConfigurableApplicationContext app =
            run(
                "hourglass.queues.reminders.forward.kafka.bootstrap-servers="
                    + kafka.bootstrapServers(),
                "hourglass.queues.reminders.forward.kafka.topic=reminders",
                "hourglass.queues.reminders.forward.kafka.key=id",
                "hourglass.queues.reminders.forward.concurrency=16",
                "hourglass.queues.reminders.forward.timeout=20s")) {
      TopicPartition partition = new TopicPartition("reminders", 0);
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      EnqueueResult job =
          app.getBean(HourglassTemplate.class)
              .job("reminders", "{\"user\":7}")
              .delay(Duration.ofSeconds(2))
              .enqueue();
      AtomicReference<ConsumerRecord<byte[], byte[]>> got = new AtomicReference<>();
      await()
          .atMost(TestApps.LIVENESS)
          .until(
              () -> {
                consumer.poll(Duration.ofMillis(100)).forEach(got::set);
                return got.get() != null;
              });
      ConsumerRecord<byte[], byte[]> record = got.get();
      // CreateTime: set by the producer when it sent the record.
      assertThat(record.timestamp())
          .isGreaterThanOrEqualTo(job.runAt().toEpochMilli() - GRANULARITY_MS);
      assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(job.id());
      assertThat(new String(record.value(), StandardCharsets.UTF_8)).isEqualTo("{\"user\":7}");
    }
  }

  @Test
  void aBadForwardValueFailsStartupNamingTheProperty() {
    assertThatThrownBy(
            () ->
                run(
                    "hourglass.queues.orders.forward.amqp.uri=http://rabbit:5672",
                    "hourglass.queues.orders.forward.amqp.exchange=orders"))
        .hasStackTraceContaining("hourglass.queues.orders.forward.amqp.uri")
        .hasStackTraceContaining("must be amqp://");
    assertThatThrownBy(
            () ->
                run(
                    "hourglass.queues.orders.forward.kafka.bootstrap-servers=kafka:9092",
                    "hourglass.queues.orders.forward.kafka.topic=orders",
                    "hourglass.queues.orders.forward.concurrency=0"))
        .hasStackTraceContaining("hourglass.queues.orders.forward.concurrency");
    assertThatThrownBy(
            () ->
                run(
                    "hourglass.queues.orders.forward.kafka.bootstrap-servers=kafka:9092",
                    "hourglass.queues.orders.forward.kafka.topic=orders",
                    "hourglass.queues.orders.forward.kafka.key=maybe"))
        .hasStackTraceContaining("hourglass.queues.orders.forward.kafka.key");
    assertThatThrownBy(
            () ->
                run(
                    "hourglass.queues.orders.forward.kafka.bootstrap-servers=kafka:9092",
                    "hourglass.queues.orders.forward.kafka.topic=orders",
                    "hourglass.queues.orders.forward.amqp.uri=" + rabbit.uri(),
                    "hourglass.queues.orders.forward.amqp.exchange=orders"))
        .hasStackTraceContaining("hourglass.queues.orders.forward")
        .hasStackTraceContaining("exactly one of");
    assertThatThrownBy(
            () ->
                run(
                    "hourglass.queues.orders.forward.kafka.bootstrap-servers=kafka:9092",
                    "hourglass.queues.orders.forward.kafka.topic=orders" + " and more"))
        .hasStackTraceContaining("hourglass.queues.orders.forward.kafka.topic");
  }

  @Test
  void anUnknownKeyUnderAQueueFailsStartup() {
    assertThatThrownBy(
            () ->
                run(
                    "hourglass.queues.orders.forward.amqp.uri=" + rabbit.uri(),
                    "hourglass.queues.orders.forward.amqp.exchang=orders"))
        .hasStackTraceContaining("hourglass.queues.orders.forward.amqp.exchang");
  }

  @Test
  void aPasswordInABadUriIsNotShown() {
    assertThatThrownBy(
            () ->
                run(
                    "hourglass.queues.orders.forward.amqp.uri=amqp://app:s3cret@rabbit:5672/a/b",
                    "hourglass.queues.orders.forward.amqp.exchange=orders"))
        .hasStackTraceContaining("hourglass.queues.orders.forward.amqp.uri")
        .satisfies(e -> assertThat(stackTrace(e)).doesNotContain("s3cret"));
  }

  private static String stackTrace(Throwable e) {
    java.io.StringWriter out = new java.io.StringWriter();
    e.printStackTrace(new java.io.PrintWriter(out));
    return out.toString();
  }
}
