package dev.hourglass;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A queue's flow-control limits ({@link QueueLimits}), enforced by the claim script: every consumer
 * obeys them, and a consumer held back waits without polling.
 */
class FlowControlTest extends HourglassTestBase {
  private static final Duration VISIBILITY = Duration.ofMinutes(5);
  private static final Duration LONG_WAIT = Duration.ofMinutes(10);

  private Queue<byte[]> limited(Hourglass h, String name, QueueLimits limits) {
    return h.configureQueue(name, QueueSettings.builder().limits(limits).build());
  }

  /** When each delivery started, by the server clock: its lease deadline less its visibility. */
  private static long startMs(Delivery<?> d) {
    return d.leaseUntil().toEpochMilli() - d.visibility().toMillis();
  }

  /** The most starts in any window of {@code periodMs}: each window beginning at a start. */
  static int mostInAnyWindow(List<Long> starts, long periodMs) {
    List<Long> sorted = new ArrayList<>(starts);
    Collections.sort(sorted);
    int most = 0;
    for (int i = 0, j = 0; i < sorted.size(); i++) {
      while (j < sorted.size() && sorted.get(j) < sorted.get(i) + periodMs) {
        j++;
      }
      most = Math.max(most, j - i);
    }
    return most;
  }

  @Test
  void workersNeverStartMoreThanTheRateInAnyWindow() {
    Hourglass h = live();
    Queue<byte[]> q = limited(h, "rate", QueueLimits.rate(4, Duration.ofMillis(300)));
    List<JobSpec> jobs = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      jobs.add(job("j" + i));
    }
    q.enqueueAll(jobs);
    List<Long> starts = new CopyOnWriteArrayList<>();
    WorkerOptions options = WorkerOptions.builder().concurrency(8).visibility(VISIBILITY).build();
    // Two workers of two clients: the limit holds across every consumer.
    for (Queue<byte[]> consumer : List.of(q, live().queue("rate"))) {
      consumer.worker(job -> starts.add(startMs(job.delivery())), options);
    }

    await().atMost(RedisProbe.LIVENESS).until(() -> starts.size() == 24);
    assertThat(mostInAnyWindow(starts, 300)).isLessThanOrEqualTo(4);
    assertThat(q.stats().heldBack()).isZero();
  }

  @Test
  void claimsLeaseNoMoreThanTheConcurrencyAndAnAckLetsTheNextGo() {
    Queue<byte[]> q = limited(manual(), "conc", QueueLimits.concurrency(3));
    for (int i = 0; i < 10; i++) {
      q.enqueue(job("c" + i));
    }

    List<Delivery<byte[]>> first = q.claim(10, VISIBILITY);
    assertThat(first).hasSize(3);
    assertThat(q.claim(10, VISIBILITY)).isEmpty();
    QueueStats stats = q.stats();
    assertThat(stats.ready()).isEqualTo(7);
    assertThat(stats.heldBack()).isEqualTo(7);

    q.ack(first.get(0));
    assertThat(q.claim(10, VISIBILITY)).hasSize(1);
    assertThat(q.stats().heldBack()).isEqualTo(6);
  }

  @Test
  void workersNeverRunMoreThanTheConcurrencyAtOnce() {
    Queue<byte[]> q = limited(live(), "conc-workers", QueueLimits.concurrency(2));
    for (int i = 0; i < 20; i++) {
      q.enqueue(job("w" + i));
    }
    AtomicInteger running = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    AtomicInteger done = new AtomicInteger();
    JobHandler<byte[]> handler =
        job -> {
          most.accumulateAndGet(running.incrementAndGet(), Math::max);
          LockSupport.parkNanos(Duration.ofMillis(5).toNanos()); // the job's work
          running.decrementAndGet();
          done.incrementAndGet();
        };
    WorkerOptions options = WorkerOptions.builder().concurrency(8).build();
    q.worker(handler, options);
    live().queue("conc-workers").worker(handler, options);

    await().atMost(RedisProbe.LIVENESS).until(() -> done.get() == 20);
    assertThat(most.get()).isLessThanOrEqualTo(2);
  }

  @Test
  void aLongPollHeldBackByTheConcurrencyGetsTheJobAfterAnAckWithoutPolling() throws Exception {
    Hourglass h = manual();
    Queue<byte[]> q = limited(h, "conc-poll", QueueLimits.concurrency(1));
    q.enqueue(job("a"));
    q.enqueue(job("b"));
    List<Delivery<byte[]>> held = q.claim(1, VISIBILITY);
    assertThat(held).hasSize(1);

    long before = RedisProbe.commandCalls(redis.server()).getOrDefault("evalsha", 0L);
    CompletableFuture<List<Delivery<byte[]>>> poll = q.claimAsync(1, VISIBILITY, LONG_WAIT);
    await().atMost(RedisProbe.LIVENESS).until(() -> !blockedInBlpop().isEmpty());
    // Long enough for a polling consumer to send many claims.
    awaitRedisClockPast(redisNow().plusMillis(500));
    assertThat(poll).isNotDone();

    q.ack(held.get(0));
    List<Delivery<byte[]>> got = poll.get(RedisProbe.LIVENESS.toSeconds(), SECONDS);
    assertThat(got).hasSize(1);
    assertThat(got.get(0).id()).isNotEqualTo(held.get(0).id());
    long calls = RedisProbe.commandCalls(redis.server()).getOrDefault("evalsha", 0L) - before;
    assertThat(calls).as("script calls while held back").isLessThan(10);
  }

  @Test
  void aLeasedJobPastItsTtlFreesItsPlaceAndWakesAHeldBackLongPoll() throws Exception {
    Queue<byte[]> q = limited(manual(), "conc-ttl", QueueLimits.concurrency(1));
    Instant expiry = redisNow().plusMillis(300);
    q.enqueue(spec("short").ttl(Duration.ofMillis(300)).build());
    assertThat(q.claim(1, VISIBILITY)).extracting(Delivery::id).containsExactly("short");
    q.enqueue(job("next"));
    CompletableFuture<List<Delivery<byte[]>>> poll = q.claimAsync(1, VISIBILITY, LONG_WAIT);
    await().atMost(RedisProbe.LIVENESS).until(() -> !blockedInBlpop().isEmpty());
    awaitRedisClockPast(expiry);

    // No promoter runs: stats catches up with the clock, and the lease past its ttl goes.
    assertThat(q.stats().inflight()).isZero();

    List<Delivery<byte[]>> got = poll.get(RedisProbe.LIVENESS.toSeconds(), SECONDS);
    assertThat(got).extracting(Delivery::id).containsExactly("next");
  }

  @Test
  void aLongPollHeldBackByTheRateWakesWhenTheWindowMoves() throws Exception {
    Queue<byte[]> q = limited(manual(), "rate-poll", QueueLimits.rate(1, Duration.ofSeconds(1)));
    q.enqueue(job("a"));
    q.enqueue(job("b"));
    Delivery<byte[]> first = q.claim(5, VISIBILITY).get(0);
    assertThat(q.stats().heldBack()).isEqualTo(1);

    long before = RedisProbe.commandCalls(redis.server()).getOrDefault("evalsha", 0L);
    List<Delivery<byte[]>> got =
        q.claimAsync(5, VISIBILITY, LONG_WAIT).get(RedisProbe.LIVENESS.toSeconds(), SECONDS);

    assertThat(got).hasSize(1);
    assertThat(startMs(got.get(0)) - startMs(first)).isGreaterThanOrEqualTo(1000);
    long calls = RedisProbe.commandCalls(redis.server()).getOrDefault("evalsha", 0L) - before;
    assertThat(calls).as("script calls while held back").isLessThan(10);
  }

  @Test
  void limitsAreStoredAndRemovedWithTheirDeliveryLog() {
    Hourglass h = manual();
    QueueLimits limits = QueueLimits.rate(2, Duration.ofMinutes(1)).withConcurrency(5);
    Queue<byte[]> q = limited(h, "stored", limits);
    assertThat(q.settings().limits()).contains(limits);
    assertThat(manual().queue("stored").settings().limits()).contains(limits);
    q.enqueue(job("a"));
    q.enqueue(job("b"));
    q.enqueue(job("c"));
    assertThat(q.claim(5, VISIBILITY)).hasSize(2);
    assertThat(redis.server().command("EXISTS", "hg:{stored.0}:rate")).isEqualTo("1");

    h.configureQueue("stored", q.settings().toBuilder().limits(null).build());

    assertThat(q.settings().limits()).isEmpty();
    assertThat(redis.server().command("EXISTS", "hg:{stored.0}:rate")).isEqualTo("0");
    assertThat(redis.server().command("HEXISTS", "hg:{stored.0}:meta", "rmax")).isEqualTo("0");
    assertThat(q.claim(5, VISIBILITY)).hasSize(1);
  }

  @Test
  void outOfRangeLimitsAreRefusedNamingTheField() {
    assertThatThrownBy(() -> QueueLimits.rate(0, Duration.ofSeconds(1)))
        .isInstanceOfSatisfying(
            InvalidArgumentException.class,
            e -> assertThat(e.field()).isEqualTo("limits.rate.max"));
    assertThatThrownBy(() -> QueueLimits.rate(1, Duration.ofDays(2)))
        .isInstanceOfSatisfying(
            InvalidArgumentException.class,
            e -> assertThat(e.field()).isEqualTo("limits.rate.periodMs"));
    assertThatThrownBy(() -> QueueLimits.concurrency(100_001))
        .isInstanceOfSatisfying(
            InvalidArgumentException.class,
            e -> assertThat(e.field()).isEqualTo("limits.concurrency"));
  }

  @Test
  void sharesSumToTheLimitAndAreAtLeastOne() {
    assertThat(
            QueueLimits.share(10, 0, 3) + QueueLimits.share(10, 1, 3) + QueueLimits.share(10, 2, 3))
        .isEqualTo(10);
    assertThat(QueueLimits.share(2, 2, 3)).isEqualTo(1);
    assertThat(mostInAnyWindow(List.of(0L, 100L, 299L, 300L, 301L), 300)).isEqualTo(4);
  }
}
