package dev.hourglass.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.hourglass.Backoff;
import dev.hourglass.EnqueueResult;
import dev.hourglass.Hourglass;
import dev.hourglass.Job;
import dev.hourglass.Queue;
import dev.hourglass.testing.RedisExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Listener methods get typed payloads; failures retry, then go to the dead letters. */
class HourglassListenerTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  record OrderPlaced(long orderId, String customer) {}

  /** What the listener methods saw. */
  static class Orders {
    final List<OrderPlaced> placed = new CopyOnWriteArrayList<>();
    final List<String> deliveries = new CopyOnWriteArrayList<>();
    final List<List<OrderPlaced>> batches = new CopyOnWriteArrayList<>();
    final List<Integer> failedAttempts = new CopyOnWriteArrayList<>();

    @HourglassListener(queue = "${test.orders-queue}", concurrency = "${test.orders-threads:2}")
    void placed(OrderPlaced order, Job<?> job) {
      placed.add(order);
      deliveries.add(job.id() + "@" + job.attempt());
    }

    @HourglassListener(queue = "batches")
    private void batch(List<OrderPlaced> batch) { // private methods are found too
      batches.add(batch);
    }

    @HourglassListener(queue = "failing", concurrency = "1")
    void failing(Job<String> job) {
      failedAttempts.add(job.attempt());
      throw new IllegalStateException("partner down for " + job.payload());
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class App {
    @Bean
    Orders orders() {
      return new Orders();
    }
  }

  private ConfigurableApplicationContext app;

  private void start(String... more) {
    List<String> properties =
        new java.util.ArrayList<>(
            List.of("hourglass.redis-uri=" + redis.uri(), "test.orders-queue=orders-eu"));
    properties.addAll(List.of(more));
    app = TestApps.run(List.of(App.class), properties.toArray(String[]::new));
  }

  @AfterEach
  void close() {
    if (app != null) {
      app.close();
    }
  }

  @Test
  void aRecordReachesTheListenerOnThePlaceholdersQueue() {
    start();
    HourglassTemplate template = app.getBean(HourglassTemplate.class);
    String id = template.enqueue("orders-eu", new OrderPlaced(42, "ada"), Duration.ZERO);

    Orders orders = app.getBean(Orders.class);
    await().atMost(TestApps.LIVENESS).until(() -> !orders.placed.isEmpty());
    assertThat(orders.placed).containsExactly(new OrderPlaced(42, "ada"));
    assertThat(orders.deliveries).containsExactly(id + "@1");
    Queue<byte[]> queue = app.getBean(Hourglass.class).queue("orders-eu");
    await().atMost(TestApps.LIVENESS).until(() -> queue.stats().counters().acked() == 1);
  }

  @Test
  void payloadsGoThroughTheApplicationsMapper() {
    start("spring.jackson.property-naming-strategy=SNAKE_CASE");
    HourglassTemplate template = app.getBean(HourglassTemplate.class);
    String waiting = template.enqueue("later", new OrderPlaced(5, "ada"), Duration.ofHours(1));
    assertThat(
            app.getBean(Hourglass.class)
                .queue("later")
                .get(waiting)
                .orElseThrow()
                .payloadAsString())
        .contains("\"order_id\":5");

    template.enqueue("orders-eu", new OrderPlaced(6, "bob"), Duration.ZERO);
    Orders orders = app.getBean(Orders.class);
    await().atMost(TestApps.LIVENESS).until(() -> !orders.placed.isEmpty());
    assertThat(orders.placed).containsExactly(new OrderPlaced(6, "bob"));
  }

  @Test
  void aGenericPayloadIsDecodedByTheMapper() {
    start();
    List<OrderPlaced> batch = List.of(new OrderPlaced(1, "a"), new OrderPlaced(2, "b"));
    app.getBean(HourglassTemplate.class).enqueue("batches", batch, Duration.ZERO);

    Orders orders = app.getBean(Orders.class);
    await().atMost(TestApps.LIVENESS).until(() -> !orders.batches.isEmpty());
    assertThat(orders.batches).containsExactly(batch);
  }

  @Test
  void theBuilderSetsEveryOptionAndCancelRemovesAWaitingJob() {
    start();
    HourglassTemplate template = app.getBean(HourglassTemplate.class);
    EnqueueResult result =
        template
            .job("orders-eu", new OrderPlaced(7, "grace"))
            .id("order-7")
            .delay(Duration.ofHours(1))
            .maxAttempts(2)
            .backoff(Backoff.fixed(Duration.ofSeconds(5)))
            .ttl(Duration.ofHours(3))
            .enqueue();
    assertThat(result.id()).isEqualTo("order-7");
    assertThat(result.created()).isTrue();
    assertThat(
            template.job("orders-eu", new OrderPlaced(7, "grace")).id("order-7").enqueueIfAbsent())
        .extracting(EnqueueResult::duplicate)
        .isEqualTo(true);
    Queue<byte[]> queue = app.getBean(Hourglass.class).queue("orders-eu");
    assertThat(queue.get("order-7").orElseThrow().maxAttempts()).isEqualTo(2);

    assertThat(template.cancel("orders-eu", "order-7")).isTrue();
    assertThat(queue.get("order-7")).isEmpty();
    assertThat(template.cancel("orders-eu", "order-7")).isFalse();

    String at = template.enqueueAt("orders-eu", new OrderPlaced(8, "x"), java.time.Instant.now());
    Orders orders = app.getBean(Orders.class);
    await().atMost(TestApps.LIVENESS).until(() -> orders.deliveries.contains(at + "@1"));
    assertThat(orders.placed).containsExactly(new OrderPlaced(8, "x"));
  }

  @Test
  void aFailingListenerRetriesByTheBackoffThenTheJobIsDead() {
    start();
    String id =
        app.getBean(HourglassTemplate.class)
            .job("failing", "order-9")
            .maxAttempts(3)
            .backoff(Backoff.fixed(Duration.ofMillis(20)))
            .enqueue()
            .id();

    Orders orders = app.getBean(Orders.class);
    Queue<byte[]> queue = app.getBean(Hourglass.class).queue("failing");
    await().atMost(TestApps.LIVENESS).until(() -> queue.stats().dead() == 1);
    assertThat(orders.failedAttempts).containsExactly(1, 2, 3);
    assertThat(queue.stats().counters().retried()).isEqualTo(2);
    assertThat(queue.get(id).orElseThrow().lastError())
        .hasValueSatisfying(e -> assertThat(e).contains("partner down for order-9"));
  }

  @Test
  void anUndecodablePayloadGoesDeadWithoutReachingTheListener() {
    start();
    Queue<byte[]> queue = app.getBean(Hourglass.class).queue("orders-eu");
    String id = queue.enqueue("not json".getBytes(StandardCharsets.UTF_8), Duration.ZERO).id();

    await().atMost(TestApps.LIVENESS).until(() -> queue.stats().dead() == 1);
    assertThat(app.getBean(Orders.class).placed).isEmpty();
    assertThat(queue.get(id).orElseThrow().lastError()).isPresent();
  }

  /** A listener whose concurrency placeholder resolves to something that is not a number. */
  static class BadConcurrency {
    @HourglassListener(queue = "q", concurrency = "${test.threads}")
    void handle(String payload) {}
  }

  /** A listener whose Job type and payload parameter disagree. */
  static class MismatchedJob {
    @HourglassListener(queue = "q")
    void handle(String payload, Job<Integer> job) {}
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class MismatchedApp {
    @Bean
    MismatchedJob mismatchedJob() {
      return new MismatchedJob();
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class BadApp {
    @Bean
    BadConcurrency badConcurrency() {
      return new BadConcurrency();
    }
  }

  @Test
  void aBadAttributeFailsStartupNamingTheMethod() {
    String[] base = {"hourglass.redis-uri=" + redis.uri()};
    assertThatThrownBy(() -> TestApps.run(List.of(BadApp.class), base))
        .hasStackTraceContaining("BadConcurrency.handle")
        .hasStackTraceContaining("test.threads");
    assertThatThrownBy(
            () ->
                TestApps.run(
                    List.of(BadApp.class), "hourglass.redis-uri=" + redis.uri(), "test.threads=0"))
        .hasStackTraceContaining("BadConcurrency.handle")
        .hasStackTraceContaining("not a whole number of at least 1");
    assertThatThrownBy(
            () -> TestApps.run(List.of(MismatchedApp.class), "hourglass.redis-uri=" + redis.uri()))
        .hasStackTraceContaining("MismatchedJob.handle")
        .hasStackTraceContaining("its Job<java.lang.Integer> and its payload parameter");
  }
}
