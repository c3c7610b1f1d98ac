package dev.hourglass.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.EnqueueResult;
import dev.hourglass.Queue;
import dev.hourglass.QueueStats;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RFuture;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.protocol.ScoredEntry;

/**
 * The guide's produce and inspect snippets, each Redisson call next to its Hourglass equivalent,
 * with the same observable outcome on one Redis.
 */
@Timeout(120) // a take() whose element never comes would block for ever
@SuppressWarnings("deprecation") // RDelayedQueue, the subject of the guide
class ProduceAndInspectTest extends RedissonAndHourglass {

  @Test
  void offerAndEnqueueMakeTheSameDueTimes() throws Exception {
    Instant before = Instant.now();
    RBlockingQueue<String> destination = redisson.getBlockingQueue("orders");
    RDelayedQueue<String> delayed = redisson.getDelayedQueue(destination);
    delayed.offer("order-42", 30, TimeUnit.MINUTES);
    RFuture<Void> offered = delayed.offerAsync("order-43", 30, TimeUnit.MINUTES);
    offered.toCompletableFuture().get();

    Queue<String> orders = hourglass.queue("orders", String.class);
    EnqueueResult result = orders.enqueue("order-42", Duration.ofMinutes(30));
    CompletableFuture<EnqueueResult> enqueued =
        orders.enqueueAsync("order-43", Duration.ofMinutes(30));
    EnqueueResult second = enqueued.get(); // its due time is set when Redis runs it
    Instant after = Instant.now();

    List<Instant> redissonDue =
        redisson
            .<byte[]>getScoredSortedSet(
                "redisson_delay_queue_timeout:{orders}", ByteArrayCodec.INSTANCE)
            .entryRange(0, -1)
            .stream()
            .map(ScoredEntry::getScore)
            .map(score -> Instant.ofEpochMilli(score.longValue()))
            .toList();
    List<Instant> hourglassDue = List.of(result.runAt(), second.runAt());
    assertThat(delayed.readAll()).containsExactly("order-42", "order-43");
    assertThat(orders.stats().delayed()).isEqualTo(2);
    for (Instant due : concat(redissonDue, hourglassDue)) {
      assertThat(due)
          .isBetween(
              before.plus(Duration.ofMinutes(30)).minus(CLOCK_TOLERANCE),
              after.plus(Duration.ofMinutes(30)).plus(CLOCK_TOLERANCE));
    }
    delayed.destroy();
  }

  @Test
  void removeByEqualityAndCancelById() {
    RBlockingQueue<String> destination = redisson.getBlockingQueue("orders");
    RDelayedQueue<String> delayed = redisson.getDelayedQueue(destination);
    delayed.offer("order-43", 2, TimeUnit.SECONDS);
    delayed.offer("order-42", 1, TimeUnit.SECONDS);
    boolean removed = delayed.remove("order-42");
    boolean stillThere = delayed.contains("order-42");
    assertThat(removed).isTrue();
    assertThat(stillThere).isFalse();
    assertThat(delayed.size()).isEqualTo(1);

    Queue<String> orders = hourglass.queue("orders", String.class);
    orders.enqueue(orders.spec("order-43").id("order-43").delay(Duration.ofSeconds(2)).build());
    orders.enqueue(orders.spec("order-42").id("order-42").delay(Duration.ofSeconds(1)).build());
    boolean cancelled = orders.cancel("order-42");
    boolean exists = orders.get("order-42").isPresent();
    assertThat(cancelled).isTrue();
    assertThat(exists).isFalse();
    assertThat(orders.stats().delayed()).isEqualTo(1);

    // The later one arrives; the removed one, due first, never did and is nowhere.
    await().atMost(LIVENESS).until(() -> destination.poll(1, TimeUnit.SECONDS), "order-43"::equals);
    assertThat(destination.size()).isZero();
    assertThat(delayed.size()).isZero();
    await()
        .atMost(LIVENESS)
        .until(
            () -> orders.claim(10, Duration.ofMinutes(1), Duration.ofSeconds(1)), d -> !d.isEmpty())
        .forEach(
            delivery -> {
              assertThat(delivery.id()).isEqualTo("order-43");
              orders.ack(delivery);
            });
    assertThat(orders.stats().total()).isZero();
    assertThat(orders.stats().counters().cancelled()).isEqualTo(1);
    delayed.destroy();
  }

  @Test
  void sizeAndStatsCountTheSameElements() {
    RBlockingQueue<String> destination = redisson.getBlockingQueue("orders");
    RDelayedQueue<String> delayed = redisson.getDelayedQueue(destination);
    Queue<String> orders = hourglass.queue("orders", String.class);
    for (int i = 0; i < 3; i++) {
      delayed.offer("later-" + i, 30, TimeUnit.MINUTES);
      orders.enqueue("later-" + i, Duration.ofMinutes(30));
    }
    delayed.offer("now", 0, TimeUnit.SECONDS);
    orders.enqueue("now", Duration.ZERO);
    await().atMost(LIVENESS).until(() -> destination.size() == 1);

    int waiting = delayed.size();
    int due = destination.size();
    List<String> pending = delayed.readAll();

    QueueStats stats = orders.stats();
    long delayedJobs = stats.delayed();
    long readyJobs = stats.ready();
    long leasedJobs = stats.inflight();

    assertThat(waiting).isEqualTo(delayedJobs).isEqualTo(3);
    assertThat(due).isEqualTo(readyJobs).isEqualTo(1);
    assertThat(leasedJobs).isZero();
    assertThat(pending).containsExactly("later-0", "later-1", "later-2");
    delayed.destroy();
  }

  private static List<Instant> concat(List<Instant> a, List<Instant> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }
}
