package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * {@link Queue#claim(int, Duration, Duration)} and {@link Queue#claimAsync}: the long poll.
 * Wake-ups come from another client's enqueue or from the promoter, never from polling, so each
 * test measures how soon a wait ends and asserts it is far below the wait it asked for.
 */
class LongPollClaimTest extends HourglassTestBase {
  private static final Duration LONG_WAIT = Duration.ofSeconds(20);
  private static final Duration VISIBILITY = Duration.ofSeconds(30);

  /**
   * Long enough for a claim's first empty attempt to land and the waiter to park on the wake list.
   * The tests are about what happens during the wait, so they must be sure the wait has begun.
   */
  private static final long SETTLE_MS = 300;

  private static void settle() throws InterruptedException {
    Thread.sleep(SETTLE_MS);
  }

  private static long msSince(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }

  @Test
  void returnsAtOnceWhenJobsAreReady() {
    Queue q = live().queue("lp-ready");
    q.enqueueAll(List.of(job("a"), job("b"), job("c")));

    long start = System.nanoTime();
    List<Delivery> got = q.claim(10, null, LONG_WAIT);

    assertThat(got).extracting(Delivery::id).containsExactlyInAnyOrder("a", "b", "c");
    assertThat(msSince(start)).isLessThan(1000);
  }

  @Test
  void zeroWaitIsAPlainClaim() {
    Queue q = live().queue("lp-zero");
    long start = System.nanoTime();
    assertThat(q.claim(1, null, Duration.ZERO)).isEmpty();
    assertThat(msSince(start)).isLessThan(1000);
  }

  @Test
  void anEnqueueByAnotherClientEndsTheWaitWithinARoundTrip() throws Exception {
    Queue consumer = live().queue("lp-wake");
    Queue producer = manual().queue("lp-wake");
    List<Long> latencies = new ArrayList<>();
    for (int round = 0; round < 5; round++) {
      CompletableFuture<List<Delivery>> waiting = consumer.claimAsync(1, VISIBILITY, LONG_WAIT);
      settle();
      assertThat(waiting).isNotDone();

      long start = System.nanoTime();
      producer.enqueue(job("j" + round));
      List<Delivery> got = waiting.get(10, TimeUnit.SECONDS);
      latencies.add(msSince(start));

      assertThat(got).extracting(Delivery::id).containsExactly("j" + round);
      consumer.ack(got.get(0).id(), got.get(0).receipt());
    }
    System.out.println("long-poll wake latency after enqueue, ms: " + latencies);
    // One BLPOP reply plus one claim script: a few ms on loopback. The bound leaves room for a
    // busy two-core machine while staying far below the 20 s wait.
    assertThat(latencies).allMatch(ms -> ms < 1000);
    assertThat(latencies.stream().sorted().toList().get(latencies.size() / 2)).isLessThan(300);
  }

  @Test
  void aDelayedJobThatBecomesDueDuringTheWaitEndsIt() {
    Queue q = live().queue("lp-due");
    EnqueueResult delayed = q.enqueue(spec("later").delay(Duration.ofMillis(1500)).build());

    long start = System.nanoTime();
    List<Delivery> got = q.claim(1, null, LONG_WAIT);
    Instant arrived = Instant.now();
    long elapsed = msSince(start);

    System.out.println(
        "long-poll ended "
            + Duration.between(delayed.runAt(), arrived).toMillis()
            + " ms after the due time");
    assertThat(got).extracting(Delivery::id).containsExactly("later");
    assertThat(elapsed).isBetween(1000L, 3000L);
    // Clocks of Redis and this JVM are the same machine's; allow a little skew either way.
    assertThat(arrived).isAfter(delayed.runAt().minusMillis(50));
    assertThat(Duration.between(delayed.runAt(), arrived)).isLessThan(Duration.ofSeconds(1));
  }

  @Test
  void returnsEmptyWhenNothingComesInTime() {
    Queue q = live().queue("lp-empty");
    Duration wait = Duration.ofMillis(700);

    long start = System.nanoTime();
    List<Delivery> got = q.claim(5, null, wait);
    long elapsed = msSince(start);

    assertThat(got).isEmpty();
    assertThat(elapsed).isGreaterThanOrEqualTo(wait.toMillis()).isLessThan(3000);
  }

  @Test
  void fiftyWaitersAndFiftyJobsEveryJobDeliveredExactlyOnce() throws Exception {
    Queue consumer = live().queue("lp-herd");
    Queue producer = manual().queue("lp-herd");
    List<CompletableFuture<List<Delivery>>> waiters = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      waiters.add(consumer.claimAsync(1, VISIBILITY, Duration.ofSeconds(30)));
    }
    settle();
    assertThat(waiters).noneMatch(CompletableFuture::isDone);

    long start = System.nanoTime();
    for (int i = 0; i < 50; i++) {
      producer.enqueue(job("h" + i));
    }
    CompletableFuture.allOf(waiters.toArray(new CompletableFuture<?>[0])).get(15, TimeUnit.SECONDS);
    System.out.println("50 waiters served 50 jobs in " + msSince(start) + " ms");

    List<String> delivered = new ArrayList<>();
    for (CompletableFuture<List<Delivery>> w : waiters) {
      List<Delivery> got = w.get();
      assertThat(got).hasSize(1);
      delivered.add(got.get(0).id());
    }
    assertThat(delivered).doesNotHaveDuplicates().hasSize(50);
    assertThat(new HashSet<>(delivered)).isEqualTo(new HashSet<>(ids("h", 50)));
    QueueStats stats = consumer.stats();
    assertThat(stats.delivered()).isEqualTo(50);
    assertThat(stats.inflight()).isEqualTo(50);
    assertThat(stats.ready()).isZero();
  }

  @Test
  void cancellingTheFutureEndsTheWaitAndLeasesNothingForIt() throws Exception {
    Queue consumer = live().queue("lp-cancel");
    Queue producer = manual().queue("lp-cancel");
    Queue other = live().queue("lp-cancel");
    CompletableFuture<List<Delivery>> waiting = consumer.claimAsync(1, VISIBILITY, LONG_WAIT);
    settle();

    assertThat(waiting.cancel(true)).isTrue();
    producer.enqueue(job("after-cancel"));

    // The cancelled waiter must not lease the job, not even briefly: nobody claims it meanwhile.
    await()
        .during(Duration.ofMillis(800))
        .atMost(Duration.ofSeconds(2))
        .pollInterval(Duration.ofMillis(20))
        .until(
            () -> {
              QueueStats s = producer.stats();
              return s.ready() == 1 && s.inflight() == 0 && s.delivered() == 0;
            });
    long start = System.nanoTime();
    List<Delivery> got = other.claim(1, VISIBILITY);
    assertThat(got).extracting(Delivery::id).containsExactly("after-cancel");
    assertThat(msSince(start)).isLessThan(1000);
  }

  @Test
  void cancelledWaitersLeaveTheWakeUpsToOtherWaiters() throws Exception {
    Queue consumer = live().queue("lp-cancel-many");
    Queue producer = manual().queue("lp-cancel-many");
    List<CompletableFuture<List<Delivery>>> cancelled = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      cancelled.add(consumer.claimAsync(1, VISIBILITY, LONG_WAIT));
    }
    CompletableFuture<List<Delivery>> kept = consumer.claimAsync(1, VISIBILITY, LONG_WAIT);
    settle();
    cancelled.forEach(f -> f.cancel(true));

    long start = System.nanoTime();
    producer.enqueue(job("for-kept"));
    List<Delivery> got = kept.get(5, TimeUnit.SECONDS);

    assertThat(got).extracting(Delivery::id).containsExactly("for-kept");
    assertThat(msSince(start)).isLessThan(1000);
    assertThat(producer.stats().delivered()).isEqualTo(1);
  }

  @Test
  void closingTheClientCompletesPendingWaitsWithAnEmptyList() throws Exception {
    Hourglass client = live();
    Queue a = client.queue("lp-close-a");
    Queue b = client.queue("lp-close-b");
    List<CompletableFuture<List<Delivery>>> waits =
        List.of(
            a.claimAsync(1, null, LONG_WAIT),
            a.claimAsync(3, null, LONG_WAIT),
            b.claimAsync(1, null, LONG_WAIT),
            CompletableFuture.supplyAsync(() -> b.claim(1, null, LONG_WAIT)));
    settle();
    assertThat(waits).noneMatch(CompletableFuture::isDone);

    try (LettuceWarnings lettuce = new LettuceWarnings()) {
      long start = System.nanoTime();
      client.close();
      for (CompletableFuture<List<Delivery>> w : waits) {
        assertThat(w.get(3, TimeUnit.SECONDS)).isEmpty();
      }
      assertThat(msSince(start)).isLessThan(3000);
      // The watchers close their blocking connections once: a second close makes Lettuce warn
      // "Connection is already closed" (it did, once per watcher, before).
      await()
          .atMost(Duration.ofSeconds(5))
          .until(
              () ->
                  Thread.getAllStackTraces().keySet().stream()
                      .noneMatch(t -> t.getName().startsWith("hourglass-longpoll-lp-close")));
      assertThat(lettuce.messages()).isEmpty();
    }
  }

  /**
   * Close lands while waiters are between a wake-up and their claim's reply, not parked: those
   * waits must end too, never hang the caller.
   */
  @Test
  void closingWhileWaitersAreClaimingEndsEveryWait() throws Exception {
    Hourglass client = live();
    Queue consumer = client.queue("lp-close-busy");
    Queue producer = manual().queue("lp-close-busy");
    List<CompletableFuture<List<Delivery>>> waits = new CopyOnWriteArrayList<>();
    AtomicBoolean closing = new AtomicBoolean();
    for (int i = 0; i < 30; i++) {
      keepWaiting(consumer, waits, closing);
    }
    settle();
    AtomicBoolean producing = new AtomicBoolean(true);
    CompletableFuture<Integer> produced =
        CompletableFuture.supplyAsync(
            () -> {
              int n = 0;
              while (producing.get()) {
                producer.enqueueAll(List.of(job("c" + n++), job("c" + n++), job("c" + n++)));
              }
              return n;
            });
    Thread.sleep(1500);
    closing.set(true);
    client.close(); // the producer is still busy: some waiters are mid-claim right now
    producing.set(false);

    CompletableFuture.allOf(waits.toArray(new CompletableFuture<?>[0])).get(5, TimeUnit.SECONDS);
    assertThat(waits).noneMatch(CompletableFuture::isCompletedExceptionally);
    System.out.println(
        produced.get(5, TimeUnit.SECONDS)
            + " jobs enqueued, "
            + waits.size()
            + " long polls, all ended at close");
  }

  /** One waiter that claims again as soon as it got a job, until the client closes. */
  private static void keepWaiting(
      Queue q, List<CompletableFuture<List<Delivery>>> waits, AtomicBoolean closing) {
    if (closing.get()) {
      return;
    }
    CompletableFuture<List<Delivery>> w = q.claimAsync(1, VISIBILITY, LONG_WAIT);
    waits.add(w);
    w.thenRunAsync(() -> keepWaiting(q, waits, closing));
  }

  @Test
  void badArgumentsAreRefusedAtOnce() {
    Queue q = live().queue("lp-args");
    assertInvalid("wait", () -> q.claim(1, null, Duration.ofMillis(-1)));
    assertInvalid("wait", () -> q.claim(1, null, Duration.ofHours(1).plusMillis(1)));
    assertInvalid("wait", () -> q.claim(1, null, null));
    assertInvalid("max", () -> q.claim(0, null, Duration.ofSeconds(1)));
    assertInvalid("max", () -> q.claim(1001, null, Duration.ofSeconds(1)));
    assertInvalid("wait", () -> q.claimAsync(1, null, Duration.ofSeconds(-5)));
    assertInvalid("wait", () -> q.claimAsync(1, null, Duration.ofDays(1)));
    assertInvalid("max", () -> q.claimAsync(0, null, Duration.ofSeconds(1)));
    assertInvalid("visibility", () -> q.claimAsync(1, Duration.ZERO, Duration.ofSeconds(1)));
  }

  private static void assertInvalid(String field, Runnable call) {
    assertThatThrownBy(call::run)
        .isInstanceOf(InvalidArgumentException.class)
        .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo(field));
  }

  @Test
  void worksOnAQueueOfFourPartitions() throws Exception {
    Hourglass client = live();
    Queue q = client.configureQueue("lp-parts", QueueSettings.builder().partitions(4).build());
    Queue producer = manual().queue("lp-parts");
    assertThat(producer.settings().partitions()).isEqualTo(4);

    // Ids spread over the partitions by hash: 12 of them land on every partition but by bad luck.
    List<Long> latencies = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      CompletableFuture<List<Delivery>> waiting = q.claimAsync(1, VISIBILITY, LONG_WAIT);
      settle();
      long start = System.nanoTime();
      producer.enqueue(job("p" + i));
      assertThat(waiting.get(5, TimeUnit.SECONDS))
          .extracting(Delivery::id)
          .containsExactly("p" + i);
      latencies.add(msSince(start));
    }
    System.out.println("4 partitions, wake latency ms: " + latencies);
    assertThat(latencies).allMatch(ms -> ms < 1000);

    // Many waiters over four partitions, a batch enqueued at once: each job exactly once.
    List<CompletableFuture<List<Delivery>>> waiters = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      waiters.add(q.claimAsync(1, VISIBILITY, LONG_WAIT));
    }
    settle();
    producer.enqueueAll(ids("b", 20).stream().map(LongPollClaimTest::job).toList());
    CompletableFuture.allOf(waiters.toArray(new CompletableFuture<?>[0])).get(10, TimeUnit.SECONDS);
    Set<String> got = ConcurrentHashMap.newKeySet();
    for (CompletableFuture<List<Delivery>> w : waiters) {
      for (Delivery d : w.get()) {
        assertThat(got.add(d.id())).as("delivered twice: " + d.id()).isTrue();
      }
    }
    assertThat(got).isEqualTo(new HashSet<>(ids("b", 20)));
  }

  @Test
  void aWakeUpThatArrivesWhenNobodyWaitsReachesAWorkerOfAnotherClient() throws Exception {
    Queue longPoller = live().queue("lp-handoff");
    Queue producer = manual().queue("lp-handoff");
    // The long poll starts first, so its BLPOP queues ahead of the worker's at Redis and the next
    // token goes to this client's watcher, which must hand it on when its waiter is gone.
    CompletableFuture<List<Delivery>> shortPoll =
        longPoller.claimAsync(1, VISIBILITY, Duration.ofMillis(800));
    settle();
    Set<String> handled = ConcurrentHashMap.newKeySet();
    live()
        .worker(
            "lp-handoff",
            job -> handled.add(job.id()),
            WorkerOptions.builder().idleWait(Duration.ofSeconds(30)).build());
    assertThat(shortPoll.get(5, TimeUnit.SECONDS)).isEmpty();

    long start = System.nanoTime();
    producer.enqueue(job("handed-on"));
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(5))
        .until(() -> handled.contains("handed-on"));
    long ms = msSince(start);
    System.out.println("worker got the job " + ms + " ms after the enqueue");
    // Far below the worker's 30 s idle wait, and below the 1 s safety sweep as well.
    assertThat(ms).isLessThan(2000);
  }

  private static List<String> ids(String prefix, int n) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(prefix + i);
    }
    return ids;
  }
}
