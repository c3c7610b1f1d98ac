package dev.hourglass.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.Hourglass;
import dev.hourglass.Job;
import dev.hourglass.ScheduleInfo;
import dev.hourglass.testing.RedisExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
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

/**
 * A schedule declared beside a listener is put by every instance at startup: two application
 * contexts started at once make one schedule and never two jobs for one occurrence.
 */
class HourglassScheduleTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private static final String LOGGING_SYSTEM = "org.springframework.boot.logging.LoggingSystem";

  /** Deliveries seen by the listeners of every context of the test. */
  static final List<String> DELIVERED = new CopyOnWriteArrayList<>();

  static class Beats {
    @HourglassListener(queue = "beats")
    @HourglassSchedule(id = "${test.schedule-id:beat}", every = "1s", payload = "tick")
    void beat(String payload, Job<?> job) {
      assertThat(payload).isEqualTo("tick");
      assertThat(job.schedule()).contains("beat");
      DELIVERED.add(job.id());
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class App {
    @Bean
    Beats beats() {
      return new Beats();
    }
  }

  private final List<ConfigurableApplicationContext> apps = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() {
    apps.forEach(ConfigurableApplicationContext::close);
    DELIVERED.clear();
  }

  @Test
  void twoContextsStartedAtOnceMakeOneScheduleAndNeverTwoJobsForAnOccurrence() {
    // Boot's logging system is one per JVM and not made for two applications starting at once
    // (each would initialize it): this test leaves logging alone.
    String loggingSystem = System.getProperty(LOGGING_SYSTEM);
    System.setProperty(LOGGING_SYSTEM, "none");
    try {
      List<CompletableFuture<Void>> starting = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        starting.add(
            CompletableFuture.runAsync(
                () ->
                    apps.add(
                        TestApps.run(List.of(App.class), "hourglass.redis-uri=" + redis.uri()))));
      }
      starting.forEach(CompletableFuture::join);
    } finally {
      if (loggingSystem == null) {
        System.clearProperty(LOGGING_SYSTEM);
      } else {
        System.setProperty(LOGGING_SYSTEM, loggingSystem);
      }
    }

    Hourglass hourglass = apps.get(0).getBean(Hourglass.class);
    await().atMost(TestApps.LIVENESS).until(() -> DELIVERED.size() >= 3);

    List<ScheduleInfo<byte[]>> schedules = hourglass.queue("beats").schedules().list();
    assertThat(schedules).extracting(ScheduleInfo::id).containsExactly("beat");
    assertThat(schedules.get(0).every()).contains(Duration.ofSeconds(1));
    List<String> ids = new ArrayList<>(DELIVERED);
    assertThat(new HashSet<>(ids)).as("each occurrence delivered once").hasSameSizeAs(ids);
    assertThat(ids).allMatch(id -> id.matches("beat:\\d+"));
  }

  @Test
  void aBadDeclarationFailsStartupNamingTheMethod() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                TestApps.run(
                    List.of(App.class),
                    "hourglass.redis-uri=" + redis.uri(),
                    "test.schedule-id=a:b"))
        .hasStackTraceContaining("@HourglassSchedule on")
        .hasStackTraceContaining("id");
  }
}
