package dev.hourglass.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.testing.RedisExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The {@code hourglass} health indicator and the metrics, through a real web server. */
class ActuatorTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  /** Receives the jobs of "metered". */
  static class Metered {
    final List<String> received = new CopyOnWriteArrayList<>();

    @HourglassListener(queue = "metered")
    void handle(String payload) {
      received.add(payload);
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class App {
    @Bean
    Metered metered() {
      return new Metered();
    }
  }

  private ConfigurableApplicationContext app;

  @AfterEach
  void close() {
    if (app != null) {
      app.close();
    }
  }

  private void start() {
    app =
        TestApps.run(
            List.of(App.class),
            "hourglass.redis-uri=" + redis.uri(),
            "hourglass.health.timeout=500ms",
            "hourglass.command-timeout=10s");
  }

  private HttpResponse<String> health() throws Exception {
    return TestApps.get(app, "/actuator/health/hourglass");
  }

  @Test
  void healthGoesDownWhenRedisStopsAndUpWhenItReturns() throws Exception {
    start();
    assertThat(health().statusCode()).isEqualTo(200);
    assertThat(health().body()).contains("\"status\":\"UP\"");

    redis.server().stop();
    try {
      await()
          .atMost(TestApps.LIVENESS)
          .untilAsserted(
              () -> {
                HttpResponse<String> down = health();
                assertThat(down.statusCode()).isEqualTo(503);
                assertThat(down.body()).contains("\"status\":\"DOWN\"");
              });
    } finally {
      redis.server().start();
    }
    await()
        .atMost(TestApps.LIVENESS)
        .untilAsserted(() -> assertThat(health().statusCode()).isEqualTo(200));
    assertThat(health().body()).contains("\"status\":\"UP\"");
  }

  /**
   * A Redis that hangs (DEBUG SLEEP) rather than refusing connections: the indicator answers DOWN
   * after its own timeout (500 ms here), not after the 10 s command timeout.
   */
  @Test
  void healthIsDownWhenRedisDoesNotAnswerWithinTheHealthTimeout() throws Exception {
    start();
    assertThat(health().statusCode()).isEqualTo(200);
    CompletableFuture<String> sleeping =
        CompletableFuture.supplyAsync(() -> redis.server().command("DEBUG", "SLEEP", "3"));
    try {
      await()
          .atMost(TestApps.LIVENESS)
          .untilAsserted(
              () -> {
                HttpResponse<String> down = health();
                assertThat(down.statusCode()).isEqualTo(503);
                assertThat(down.body()).contains("Redis did not answer within PT0.5S");
              });
    } finally {
      sleeping.join();
    }
    await()
        .atMost(TestApps.LIVENESS)
        .untilAsserted(() -> assertThat(health().statusCode()).isEqualTo(200));
  }

  @Test
  void metricsAppearInPrometheus() throws Exception {
    start();
    app.getBean(HourglassTemplate.class).enqueue("metered", "hello", Duration.ZERO);
    Metered metered = app.getBean(Metered.class);
    await().atMost(TestApps.LIVENESS).until(() -> metered.received.contains("hello"));

    await()
        .atMost(TestApps.LIVENESS)
        .untilAsserted(
            () -> {
              String body = TestApps.get(app, "/actuator/prometheus").body();
              assertThat(body)
                  .contains("hourglass_jobs_enqueued_total{queue=\"metered\"} 1.0")
                  .contains("hourglass_jobs_acked_total{queue=\"metered\"} 1.0")
                  .containsPattern("hourglass_jobs\\{queue=\"metered\",state=\"ready\"} 0.0")
                  .containsPattern(
                      "hourglass_delivery_lateness_seconds_count\\{mode=\"pull\",queue=\"metered\"}"
                          + " 1")
                  .contains("hourglass_redis_script_seconds");
            });
  }
}
