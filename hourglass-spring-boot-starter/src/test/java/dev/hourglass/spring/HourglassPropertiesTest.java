package dev.hourglass.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.Backoff;
import dev.hourglass.Hourglass;
import dev.hourglass.QueueSettings;
import dev.hourglass.RedisVersionException;
import dev.hourglass.embedded.RedisServer;
import dev.hourglass.testing.OldRedis;
import dev.hourglass.testing.RedisExtension;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/** {@code hourglass.*} and {@code spring.data.redis.*} reach the client; bad ones stop startup. */
class HourglassPropertiesTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class App {}

  private static ConfigurableApplicationContext run(String... properties) {
    return TestApps.run(List.of(App.class), properties);
  }

  @Test
  void springDataRedisIsReused() {
    try (ConfigurableApplicationContext app =
            run(
                "spring.data.redis.host=127.0.0.1",
                "spring.data.redis.port=" + redis.server().port(),
                "spring.data.redis.database=3");
        Hourglass db3 = Hourglass.builder().redisUri(redis.uri() + "/3").build();
        Hourglass db0 = Hourglass.builder().redisUri(redis.uri() + "/0").build()) {
      String id = app.getBean(HourglassTemplate.class).enqueue("q", "x", Duration.ofHours(1));
      assertThat(db3.queue("q").get(id)).isPresent();
      assertThat(db0.queueExists("q")).isFalse();
    }
  }

  @Test
  void hourglassRedisUriWinsOverSpringDataRedis() {
    try (ConfigurableApplicationContext app =
            run("spring.data.redis.port=1", "hourglass.redis-uri=" + redis.uri() + "/5");
        Hourglass db5 = Hourglass.builder().redisUri(redis.uri() + "/5").build()) {
      String id = app.getBean(HourglassTemplate.class).enqueue("q", "x", Duration.ofHours(1));
      assertThat(db5.queue("q").get(id)).isPresent();
    }
  }

  @Test
  void hourglassPropertiesBind() {
    try (ConfigurableApplicationContext app =
            run(
                "hourglass.redis-uri=" + redis.uri(),
                "hourglass.prefix=shop",
                "hourglass.defaults.max-attempts=7",
                "hourglass.defaults.visibility=45s",
                "hourglass.defaults.ttl=2h",
                "hourglass.defaults.backoff=15s 3m 10m");
        Hourglass other = Hourglass.builder().redisUri(redis.uri()).prefix("shop").build()) {
      QueueSettings defaults = app.getBean(Hourglass.class).defaultQueueSettings();
      assertThat(defaults.maxAttempts()).isEqualTo(7);
      assertThat(defaults.visibility()).isEqualTo(Duration.ofSeconds(45));
      assertThat(defaults.ttl()).contains(Duration.ofHours(2));
      assertThat(defaults.backoff()).isEqualTo(Backoff.parseSchedule("15s 3m 10m"));

      app.getBean(HourglassTemplate.class).enqueue("q", "x", Duration.ofHours(1));
      assertThat(other.queueNames()).contains("q");
      assertThat(other.queue("q").settings().maxAttempts()).isEqualTo(7);
    }
  }

  @Test
  void anUnknownHourglassKeyFailsStartup() {
    assertThatThrownBy(
            () -> run("hourglass.redis-uri=" + redis.uri(), "hourglass.worker.threads=8"))
        .hasStackTraceContaining("hourglass.worker.threads");
  }

  @Test
  void aBadValueFailsStartupNamingTheProperty() {
    assertThatThrownBy(
            () -> run("hourglass.redis-uri=" + redis.uri(), "hourglass.defaults.backoff=soon"))
        .hasStackTraceContaining("hourglass.defaults.backoff")
        .hasStackTraceContaining("'soon' is not a duration");
    assertThatThrownBy(() -> run("hourglass.redis-uri=" + redis.uri(), "hourglass.prefix=a b"))
        .hasStackTraceContaining("hourglass.prefix");
  }

  @Test
  void aRedisOlderThan62FailsStartupNamingBothVersions() {
    try (RedisServer old = RedisServer.builder().binary(OldRedis.binary()).build()) {
      old.start();

      assertThatThrownBy(() -> run("hourglass.redis-uri=" + old.uri()))
          .hasRootCauseInstanceOf(RedisVersionException.class)
          .hasStackTraceContaining(
              "Redis 6.0.5 at 127.0.0.1:"
                  + old.port()
                  + " is older than 6.2, the oldest Hourglass supports");
    }
  }

  @Test
  void theJarDescribesEveryPropertyForIdes() throws IOException {
    String metadata = "";
    for (URL url :
        Collections.list(
            HourglassTemplate.class
                .getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"))) {
      try (InputStream in = url.openStream()) {
        String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        if (text.contains("\"hourglass\"")) {
          metadata = text;
        }
      }
    }
    for (String key :
        List.of(
            "hourglass.redis-uri",
            "hourglass.prefix",
            "hourglass.command-timeout",
            "hourglass.defaults.max-attempts",
            "hourglass.defaults.backoff",
            "hourglass.worker.concurrency",
            "hourglass.worker.shutdown-timeout",
            "hourglass.listeners.auto-startup",
            "hourglass.health.timeout",
            "hourglass.queues",
            "hourglass.archive.enabled",
            "hourglass.archive.jdbc-url",
            "hourglass.archive.retention",
            "hourglass.archive.outbox-max")) {
      assertThat(metadata).contains("\"name\": \"" + key + "\"");
    }
    assertThat(metadata).contains("Attempts before a failing job goes to the dead letters.");
  }
}
