package dev.hourglass.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.Backoff;
import dev.hourglass.JobPage;
import dev.hourglass.Queue;
import dev.hourglass.Worker;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;

/**
 * The guide's retry snippets: re-offering on Redisson, a handler's failure, retryAfter and dead
 * letters on Hourglass. Each order fails as often as {@link #failures} says, then is handled.
 */
@Timeout(120) // a take() whose element never comes would block for ever
@SuppressWarnings("deprecation") // RDelayedQueue, the subject of the guide
class RetryTest extends RedissonAndHourglass {
  private final Map<String, Integer> failures = new ConcurrentHashMap<>();
  private final Map<String, Instant> failedAt = new ConcurrentHashMap<>();

  /** Handles the order, or throws while it has failures left (a partner that is down). */
  void handleOrFail(String order) {
    if (failures.merge(order, -1, Integer::sum) >= 0) {
      failedAt.put(order, Instant.now());
      throw new IllegalStateException("partner down for " + order);
    }
    handle(order);
  }

  /** Like {@link #handleOrFail}, as the answer of a partner that says whether it took the order. */
  boolean partnerAccepts(String order) {
    try {
      handleOrFail(order);
      return true;
    } catch (IllegalStateException e) {
      return false;
    }
  }

  @Test
  void reOfferingAndFailingHandlerBothRetryAfterTheDelay() throws Exception {
    failures.put("order-1", 1);
    RBlockingQueue<String> destination = redisson.getBlockingQueue("orders");
    RDelayedQueue<String> delayed = redisson.getDelayedQueue(destination);
    delayed.offer("order-1", 0, TimeUnit.SECONDS);
    for (int i = 0; i < 2; i++) {
      String order = destination.take();
      try {
        handleOrFail(order);
      } catch (Exception e) {
        delayed.offer(order, 1, TimeUnit.SECONDS);
      }
    }
    assertThat(receivedOrders()).containsExactly("order-1");
    assertThat(received.get(0).at())
        .isAfterOrEqualTo(failedAt.get("order-1").plusSeconds(1).minus(CLOCK_TOLERANCE));
    delayed.destroy();

    failures.put("order-2", 2);
    Queue<String> orders = hourglass.queue("orders", String.class);
    orders.enqueue("order-2", Duration.ZERO);
    Worker worker = orders.worker(job -> handleOrFail(job.payload()));
    await().atMost(LIVENESS).until(() -> receivedOrders().contains("order-2"));
    worker.close();
    assertThat(orders.stats().counters())
        .satisfies(c -> assertThat(c.retried()).isEqualTo(2))
        .satisfies(c -> assertThat(c.acked()).isEqualTo(1));
  }

  @Test
  void retryAfterWaitsExactlyTheDelayItNames() {
    failures.put("order-3", 1);
    Queue<String> orders = hourglass.queue("orders", String.class);
    orders.enqueue("order-3", Duration.ZERO);
    Worker worker =
        orders.worker(
            job -> {
              if (!partnerAccepts(job.payload())) {
                job.retryAfter(Duration.ofSeconds(1), "partner busy");
              }
            });
    await().atMost(LIVENESS).until(() -> receivedOrders().contains("order-3"));
    worker.close();
    assertThat(received.get(0).at())
        .isAfterOrEqualTo(failedAt.get("order-3").plusSeconds(1).minus(CLOCK_TOLERANCE));
    assertThat(orders.stats().counters().retried()).isEqualTo(1);
  }

  @Test
  void aJobOutOfAttemptsGoesToDeadLettersAndCanBeRequeued() {
    failures.put("order-13", 2);
    Queue<String> orders = hourglass.queue("orders", String.class);
    Worker worker = orders.worker(job -> handleOrFail(job.payload()));
    orders.enqueue(
        orders
            .spec("order-13")
            .id("order-13")
            .maxAttempts(2)
            .backoff(Backoff.fixed(Duration.ofSeconds(1)))
            .build());
    await().atMost(LIVENESS).until(() -> orders.dead().count() == 1);

    JobPage<String> dead = orders.dead().list(null, 100);
    orders.dead().requeue(dead.jobs().get(0).id());

    assertThat(dead.jobs().get(0).lastError())
        .hasValueSatisfying(e -> assertThat(e).contains("partner down for order-13"));
    await().atMost(LIVENESS).until(() -> receivedOrders().contains("order-13"));
    worker.close();
    assertThat(orders.stats().dead()).isZero();
  }
}
