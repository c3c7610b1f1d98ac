package dev.hourglass.examples.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.Hourglass;
import dev.hourglass.embedded.RedisServer;
import dev.hourglass.testing.RedisExtension;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** With no Redis configured the example runs on an embedded one, which stops with it. */
class EmbeddedRedisTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  /**
   * Registered as a source of the application; records, when the application's beans are destroyed,
   * whether Redis was still running.
   */
  static class ShutdownProbe implements DisposableBean {
    static final List<Boolean> redisRunningAtDestroy = new CopyOnWriteArrayList<>();
    private final RedisServer embedded;

    ShutdownProbe(RedisServer embedded) {
      this.embedded = embedded;
    }

    @Override
    public void destroy() {
      redisRunningAtDestroy.add(embedded.isRunning());
    }
  }

  @Test
  void withNoRedisConfiguredItStartsOneAndStopsItWithTheApplication() {
    RedisServer embedded;
    long pid;
    try (RunningOrders app = RunningOrders.start()) {
      embedded = app.context.getBean(EmbeddedRedis.BEAN_NAME, RedisServer.class);
      pid = embedded.pid();
      assertThat(app.context.getEnvironment().getProperty("hourglass.redis-uri"))
          .isEqualTo(embedded.uri());

      Order order = app.place();
      assertThat(
              app.context
                  .getBean(Hourglass.class)
                  .queue(OrderService.QUEUE)
                  .get(OrderService.jobId(order.id())))
          .as("the closing job, in the embedded Redis")
          .isPresent();
      assertThat(embedded.command("DBSIZE")).isNotEqualTo("0");
    }
    assertThat(embedded.isRunning()).isFalse();
    await()
        .atMost(RunningOrders.LIVENESS)
        .until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
    assertThat(embedded.dataDir()).doesNotExist();
  }

  @Test
  void redisStopsOnlyAfterTheBeansThatUseItAreDestroyed() {
    ShutdownProbe.redisRunningAtDestroy.clear();
    try (RunningOrders app =
        RunningOrders.start(OrdersApplication.application().sources(ShutdownProbe.class))) {
      assertThat(app.context.getBean(ShutdownProbe.class)).isNotNull();
    }
    assertThat(ShutdownProbe.redisRunningAtDestroy).containsExactly(true);
  }

  @Test
  void withSpringDataRedisConfiguredNoneIsStarted() {
    try (RunningOrders app = RunningOrders.start("spring.data.redis.url=" + redis.uri())) {
      assertThat(app.context.getBeansOfType(RedisServer.class)).isEmpty();
      Order order = app.place();
      assertThat(
              app.context
                  .getBean(Hourglass.class)
                  .queue(OrderService.QUEUE)
                  .get(OrderService.jobId(order.id())))
          .isPresent();
      assertThat(redis.server().command("DBSIZE")).isNotEqualTo("0");
    }
  }

  @Test
  void redisCountsAsConfiguredByAnySpringDataRedisPropertyOrHourglassRedisUri() {
    assertThat(configured(Map.of())).isFalse();
    assertThat(configured(Map.of("spring.data.redis.host", "redis.example"))).isTrue();
    assertThat(configured(Map.of("spring.data.redis.sentinel.master", "mymaster"))).isTrue();
    assertThat(configured(Map.of("hourglass.redis-uri", "redis://redis.example:6379"))).isTrue();
    assertThat(configured(Map.of("hourglass.redis-uri", " "))).isFalse();
    assertThat(configured(Map.of("hourglass.prefix", "hg", "spring.data.mongodb.host", "m")))
        .isFalse();

    StandardEnvironment fromVariables = new StandardEnvironment();
    String variables = StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME;
    fromVariables
        .getPropertySources()
        .replace(
            variables,
            new SystemEnvironmentPropertySource(
                variables, Map.of("SPRING_DATA_REDIS_PORT", "6380")));
    assertThat(EmbeddedRedis.redisConfigured(fromVariables)).isTrue();
  }

  private static boolean configured(Map<String, Object> properties) {
    StandardEnvironment environment = new StandardEnvironment();
    environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
    return EmbeddedRedis.redisConfigured(environment);
  }
}
