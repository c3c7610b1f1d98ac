package dev.hourglass.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.hourglass.Delivery;
import dev.hourglass.Hourglass;
import dev.hourglass.Queue;
import dev.hourglass.QueueLimits;
import dev.hourglass.QueueSettings;
import dev.hourglass.testing.RedisExtension;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class HourglassMetricsTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final HourglassMetrics metrics = new HourglassMetrics(registry);
  private Hourglass hourglass;

  @BeforeEach
  void connect() {
    hourglass =
        Hourglass.builder()
            .redisUri(redis.uri())
            .backgroundPromoter(false)
            .scriptListener(metrics)
            .build();
    metrics.bind(hourglass);
  }

  @AfterEach
  void close() {
    hourglass.close();
  }

  @Test
  void queueCountersAndGaugesFollowEnqueueAckAndCancel() {
    Queue<byte[]> orders = hourglass.queue("orders");
    orders.enqueue(bytes("a"), Duration.ZERO);
    metrics.registerQueues();
    assertThat(counter("enqueued", "orders")).isEqualTo(1);
    assertThat(gauge("ready", "orders")).isEqualTo(1);

    orders.enqueue(bytes("b"), Duration.ZERO);
    String later = orders.enqueue(bytes("c"), Duration.ofHours(1)).id();
    String cancelled = orders.enqueue(bytes("d"), Duration.ofHours(1)).id();
    List<Delivery<byte[]>> claimed = orders.claim(2, Duration.ofMinutes(1));
    orders.ack(claimed.get(0));
    assertThat(orders.cancel(cancelled)).isTrue();

    // The meters read a cached snapshot that is renewed after a second.
    await()
        .atMost(10, TimeUnit.SECONDS)
        .untilAsserted(
            () -> {
              assertThat(counter("enqueued", "orders")).isEqualTo(4);
              assertThat(counter("delivered", "orders")).isEqualTo(2);
              assertThat(counter("acked", "orders")).isEqualTo(1);
              assertThat(counter("cancelled", "orders")).isEqualTo(1);
              assertThat(counter("dead", "orders")).isZero();
              assertThat(gauge("delayed", "orders")).isEqualTo(1);
              assertThat(gauge("ready", "orders")).isZero();
              assertThat(gauge("inflight", "orders")).isEqualTo(1);
              assertThat(gauge("dead", "orders")).isZero();
            });
    assertThat(orders.get(later)).isPresent();
  }

  @Test
  void theHeldBackGaugeCountsTheReadyJobsTheLimitsHoldBack() {
    Queue<byte[]> limited =
        hourglass.configureQueue(
            "limited", QueueSettings.builder().limits(QueueLimits.concurrency(1)).build());
    for (int i = 0; i < 3; i++) {
      limited.enqueue(bytes("j" + i), Duration.ZERO);
    }
    limited.claim(3, Duration.ofMinutes(1));
    metrics.registerQueues();

    assertThat(registry.get("hourglass.jobs.held.back").tag("queue", "limited").gauge().value())
        .isEqualTo(2);
  }

  @Test
  void registerQueuesAddsMetersForQueuesCreatedLaterOnce() {
    metrics.registerQueues();
    assertThat(registry.find("hourglass.jobs.enqueued").meters()).isEmpty();

    hourglass.queue("first").enqueue(bytes("x"), Duration.ZERO);
    hourglass.queue("second").enqueue(bytes("y"), Duration.ZERO);
    metrics.registerQueues();
    metrics.registerQueues();

    assertThat(registry.find("hourglass.jobs.enqueued").meters())
        .extracting(m -> m.getId().getTag("queue"))
        .containsExactlyInAnyOrder("first", "second");
    assertThat(registry.find("hourglass.jobs").tag("queue", "first").gauges()).hasSize(4);
  }

  @Test
  void aQueueRegisteredBeforeBindReadsNaNUntilBound() {
    HourglassMetrics unbound = new HourglassMetrics(new SimpleMeterRegistry());
    unbound.registerQueue("orders");
    unbound.registerQueues(); // nothing to list yet: no client

    assertThat(unbound.registry().get("hourglass.jobs.enqueued").functionCounter().count()).isNaN();

    hourglass.queue("orders").enqueue(bytes("x"), Duration.ZERO);
    unbound.bind(hourglass);
    assertThat(unbound.registry().get("hourglass.jobs.enqueued").functionCounter().count())
        .isEqualTo(1);
  }

  @Test
  void bindingToASecondClientIsRefused() {
    try (Hourglass other = Hourglass.builder().redisUri(redis.uri()).build()) {
      metrics.bind(hourglass); // the same client again is fine

      assertThatThrownBy(() -> metrics.bind(other))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("already bound");
    }
  }

  @Test
  void scriptCallsAreTimedByScriptAndOutcome() {
    hourglass.queue("orders").enqueue(bytes("x"), Duration.ZERO);

    Timer enqueue =
        registry
            .get("hourglass.redis.script")
            .tag("script", "enqueue_fresh") // an id the client made: no duplicate check
            .tag("outcome", "ok")
            .timer();
    assertThat(enqueue.count()).isPositive();
  }

  @Test
  void deliveryLatenessIsRecordedAndEarlyCountsAsZero() {
    metrics.delivered("orders", "pull", Instant.now().minusSeconds(3));
    metrics.delivered("orders", "pull", Instant.now().plusSeconds(60)); // early counts as 0

    Timer lateness =
        registry
            .get("hourglass.delivery.lateness")
            .tag("queue", "orders")
            .tag("mode", "pull")
            .timer();
    assertThat(lateness.count()).isEqualTo(2);
    assertThat(lateness.max(TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(3000);
    assertThat(lateness.totalTime(TimeUnit.MILLISECONDS))
        .isEqualTo(lateness.max(TimeUnit.MILLISECONDS));
  }

  private double counter(String name, String queue) {
    return registry.get("hourglass.jobs." + name).tag("queue", queue).functionCounter().count();
  }

  private double gauge(String state, String queue) {
    return registry.get("hourglass.jobs").tag("queue", queue).tag("state", state).gauge().value();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
