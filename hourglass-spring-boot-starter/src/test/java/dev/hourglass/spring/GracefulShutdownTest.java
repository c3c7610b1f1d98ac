package dev.hourglass.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.Hourglass;
import dev.hourglass.QueueStats;
import dev.hourglass.testing.RedisExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Closing the application while handlers run: the running jobs finish and are acked, the jobs the
 * worker held but had not started go back to Redis, and a second application runs those. No job is
 * lost, none is acked unrun, none runs to completion twice.
 */
class GracefulShutdownTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  static final int JOBS = 20;
  static final List<String> started = new CopyOnWriteArrayList<>();
  static final List<String> completed = new CopyOnWriteArrayList<>();
  static volatile CountDownLatch gate;

  /** A slow handler: it waits for the test's gate, then counts the job as done. */
  static class SlowHandler {
    @HourglassListener(queue = "slow", concurrency = "2")
    void handle(String payload) throws InterruptedException {
      started.add(payload);
      gate.await();
      completed.add(payload);
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class App {
    @Bean
    SlowHandler slowHandler() {
      return new SlowHandler();
    }
  }

  private static ConfigurableApplicationContext run() {
    return TestApps.run(
        List.of(App.class),
        "hourglass.redis-uri=" + redis.uri(),
        "spring.lifecycle.timeout-per-shutdown-phase=60s");
  }

  @Test
  void runningJobsFinishAndTheRestAreHandedBackThenRunOnce() throws Exception {
    gate = new CountDownLatch(1);
    ConfigurableApplicationContext first = run();
    HourglassTemplate template = first.getBean(HourglassTemplate.class);
    List<String> all = IntStream.range(0, JOBS).mapToObj(i -> "job-" + i).toList();
    all.forEach(p -> template.job("slow", p).id(p).enqueue());
    await().atMost(TestApps.LIVENESS).until(() -> started.size() == 2);

    SmartLifecycle listeners = first.getBean("hourglassListenerContainer", SmartLifecycle.class);
    Thread closing = new Thread(first::close, "test-close");
    closing.start();
    await().atMost(TestApps.LIVENESS).until(() -> !listeners.isRunning());
    gate.countDown();
    closing.join();

    List<String> firstRun = new ArrayList<>(completed);
    assertThat(firstRun).containsExactlyInAnyOrderElementsOf(started);
    assertThat(firstRun).hasSize(2);
    try (Hourglass client = Hourglass.builder().redisUri(redis.uri()).build()) {
      QueueStats stats = client.queue("slow").stats();
      assertThat(stats.counters().acked()).isEqualTo(2);
      assertThat(stats.inflight()).isZero();
      assertThat(stats.ready() + stats.delayed()).isEqualTo(JOBS - 2);
      for (String id : firstRun) {
        assertThat(client.queue("slow").get(id)).isEmpty();
      }
    }

    try (ConfigurableApplicationContext second = run()) {
      await().atMost(TestApps.LIVENESS).until(() -> completed.size() == JOBS);
      Set<String> distinct = new TreeSet<>(completed);
      assertThat(distinct).containsExactlyInAnyOrderElementsOf(all);
      assertThat(completed).hasSize(JOBS);
      Hourglass client = second.getBean(Hourglass.class);
      await()
          .atMost(TestApps.LIVENESS)
          .until(() -> client.queue("slow").stats().counters().acked() == JOBS);
    }
  }
}
