package dev.hourglass;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
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
 * Wake-ups come from another client's enqueue or from the promoter, never from polling. Each wait
 * asks for {@link #LONG_WAIT} while the test waits for its outcome only {@link #LIVENESS}: a wait
 * that ends with a job in time was ended by a wake-up, not by its deadline. How soon is the bench's
 * business.
 */
class LongPollClaimTest extends HourglassTestBase {
  private static final Duration LONG_WAIT = Duration.ofMinutes(10);
  private static final Duration LIVENESS = RedisProbe.LIVENESS;
  private static final Duration VISIBILITY = Duration.ofSeconds(30);

  /**
   * Waits until a waiter is parked: with nothing ready, its first claim came back empty and the
   * watcher of its partition blocks on the wake list. The tests are about what happens during the
   * wait, so they must be sure the wait has begun.
   */
  private void awaitParked(int blockedWatchers) {
    await("waiters parked on the wake list")
        .atMost(LIVENESS)
        .until(() -> blockedInBlpop().size() >= blockedWatchers);
  }

  /** Whether a connection this test opened has sent BLPOP (CLIENT LIST: its last command). */
  private boolean anyBlpopSent() {
    return clientsOfThisTest().stream().anyMatch(c -> "blpop".equals(c.cmd()));
  }

  @Test
  void returnsAtOnceWhenJobsAreReady() throws Exception {
    Queue<byte[]> q = live().queue("lp-ready");
    q.enqueueAll(List.of(job("a"), job("b"), job("c")));

    List<Delivery<byte[]>> got =
        q.claimAsync(10, null, LONG_WAIT).get(LIVENESS.toSeconds(), SECONDS);

    assertThat(got).extracting(Delivery::id).containsExactlyInAnyOrder("a", "b", "c");
    assertThat(anyBlpopSent()).as("the claim never waited on the wake list").isFalse();
  }

  @Test
  void zeroWaitIsAPlainClaim() {
    Queue<byte[]> q = live().queue("lp-zero");
    assertThat(q.claim(1, null, Duration.ZERO)).isEmpty();
    assertThat(anyBlpopSent()).as("the claim never waited on the wake list").isFalse();
  }

  @Test
  void anEnqueueByAnotherClientEndsTheWait() throws Exception {
    Queue<byte[]> consumer = live().queue("lp-wake");
    Queue<byte[]> producer = manual().queue("lp-wake");
    for (int round = 0; round < 5; round++) {
      CompletableFuture<List<Delivery<byte[]>>> waiting =
          consumer.claimAsync(1, VISIBILITY, LONG_WAIT);
      awaitParked(1);
      assertThat(waiting).isNotDone();

      producer.enqueue(job("j" + round));
      List<Delivery<byte[]>> got = waiting.get(LIVENESS.toSeconds(), SECONDS);

      assertThat(got).extracting(Delivery::id).containsExactly("j" + round);
      consumer.ack(got.get(0).id(), got.get(0).receipt());
    }
  }

  /**
   * A queue deleted and made again through this client has new partition objects for the same keys;
   * its wake-up watcher, made for the old ones, still wakes the waiters of the new.
   */
  @Test
  void aQueueDeletedAndMadeAgainStillWakesItsWaiters() throws Exception {
    Queue<byte[]> consumer = live().queue("lp-again");
    Queue<byte[]> producer = manual().queue("lp-again");
    for (int round = 0; round < 2; round++) {
      CompletableFuture<List<Delivery<byte[]>>> waiting =
          consumer.claimAsync(1, VISIBILITY, LONG_WAIT);
      awaitParked(1);
      producer.enqueue(job("j" + round));
      List<Delivery<byte[]>> got = waiting.get(LIVENESS.toSeconds(), SECONDS);
      assertThat(got).extracting(Delivery::id).containsExactly("j" + round);
      assertThat(consumer.deleteWithJobs()).isEqualTo(1);
    }
  }

  @Test
  void aDelayedJobThatBecomesDueDuringTheWaitEndsItNotBefore() throws Exception {
    Queue<byte[]> q = live().queue("lp-due");
    EnqueueResult delayed = q.enqueue(spec("later").delay(Duration.ofMillis(1500)).build());

    List<Delivery<byte[]>> got =
        q.claimAsync(1, null, LONG_WAIT).get(LIVENESS.toSeconds(), SECONDS);

    assertThat(got).extracting(Delivery::id).containsExactly("later");
    Delivery<byte[]> d = got.get(0);
    assertThat(d.dueAt()).isEqualTo(delayed.runAt());
    // The lease began when the claim ran, by the Redis clock: not before the due time.
    assertThat(d.leaseUntil().minus(d.visibility())).isAfterOrEqualTo(delayed.runAt());
  }

  @Test
  void returnsEmptyWhenNothingComesInTime() {
    Queue<byte[]> q = live().queue("lp-empty");
    Duration wait = Duration.ofMillis(700);

    long start = System.nanoTime();
    List<Delivery<byte[]>> got = q.claim(5, null, wait);
    long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertThat(got).isEmpty();
    assertThat(elapsedMs).as("waited the whole wait").isGreaterThanOrEqualTo(wait.toMillis());
  }

  @Test
  void fiftyWaitersAndFiftyJobsEveryJobDeliveredExactlyOnce() throws Exception {
    Queue<byte[]> consumer = live().queue("lp-herd");
    Queue<byte[]> producer = manual().queue("lp-herd");
    List<CompletableFuture<List<Delivery<byte[]>>>> waiters = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      waiters.add(consumer.claimAsync(1, VISIBILITY, LONG_WAIT));
    }
    awaitParked(1);
    assertThat(waiters).noneMatch(CompletableFuture::isDone);

    for (int i = 0; i < 50; i++) {
      producer.enqueue(job("h" + i));
    }
    CompletableFuture.allOf(waiters.toArray(new CompletableFuture<?>[0]))
        .get(LIVENESS.toSeconds(), SECONDS);

    List<String> delivered = new ArrayList<>();
    for (CompletableFuture<List<Delivery<byte[]>>> w : waiters) {
      List<Delivery<byte[]>> got = w.get();
      assertThat(got).hasSize(1);
      delivered.add(got.get(0).id());
    }
    assertThat(delivered).doesNotHaveDuplicates().hasSize(50);
    assertThat(new HashSet<>(delivered)).isEqualTo(new HashSet<>(ids("h", 50)));
    QueueStats stats = consumer.stats();
    assertThat(stats.counters().delivered()).isEqualTo(50);
    assertThat(stats.inflight()).isEqualTo(50);
    assertThat(stats.ready()).isZero();
  }

  @Test
  void cancellingTheFutureEndsTheWaitAndLeasesNothingForIt() throws Exception {
    Queue<byte[]> consumer = live().queue("lp-cancel");
    Queue<byte[]> producer = manual().queue("lp-cancel");
    Queue<byte[]> other = live().queue("lp-cancel");
    CompletableFuture<List<Delivery<byte[]>>> waiting =
        consumer.claimAsync(1, VISIBILITY, LONG_WAIT);
    awaitParked(1);

    assertThat(waiting.cancel(true)).isTrue();
    producer.enqueue(job("after-cancel"));

    // The cancelled waiter must not lease the job, not even briefly: nobody claims it meanwhile
    // (delivered only grows, so one lease would fail the whole window).
    await()
        .during(Duration.ofMillis(800))
        .atMost(LIVENESS)
        .pollInterval(Duration.ofMillis(20))
        .until(
            () -> {
              QueueStats s = producer.stats();
              return s.ready() == 1 && s.inflight() == 0 && s.counters().delivered() == 0;
            });
    List<Delivery<byte[]>> got = other.claim(1, VISIBILITY);
    assertThat(got).extracting(Delivery::id).containsExactly("after-cancel");
  }

  /** The server completes parked claims with nothing when it shuts down: the same as a cancel. */
  @Test
  void completingTheFutureFromOutsideEndsTheWaitAndLeasesNothingForIt() throws Exception {
    Queue<String> consumer = live().queue("lp-complete", String.class);
    Queue<byte[]> producer = manual().queue("lp-complete");
    CompletableFuture<List<Delivery<String>>> waiting =
        consumer.claimAsync(1, VISIBILITY, LONG_WAIT);
    awaitParked(1);

    assertThat(waiting.complete(List.of())).isTrue();
    producer.enqueue(job("after-complete"));

    await()
        .during(Duration.ofMillis(800))
        .atMost(LIVENESS)
        .pollInterval(Duration.ofMillis(20))
        .until(
            () -> {
              QueueStats s = producer.stats();
              return s.ready() == 1 && s.inflight() == 0 && s.counters().delivered() == 0;
            });
    List<Delivery<byte[]>> got = producer.claim(1, VISIBILITY);
    assertThat(got).extracting(Delivery::attempt).containsExactly(1);
  }

  @Test
  void cancelledWaitersLeaveTheWakeUpsToOtherWaiters() throws Exception {
    Queue<byte[]> consumer = live().queue("lp-cancel-many");
    Queue<byte[]> producer = manual().queue("lp-cancel-many");
    List<CompletableFuture<List<Delivery<byte[]>>>> cancelled = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      cancelled.add(consumer.claimAsync(1, VISIBILITY, LONG_WAIT));
    }
    CompletableFuture<List<Delivery<byte[]>>> kept = consumer.claimAsync(1, VISIBILITY, LONG_WAIT);
    awaitParked(1);
    cancelled.forEach(f -> f.cancel(true));

    producer.enqueue(job("for-kept"));
    List<Delivery<byte[]>> got = kept.get(LIVENESS.toSeconds(), SECONDS);

    assertThat(got).extracting(Delivery::id).containsExactly("for-kept");
    assertThat(producer.stats().counters().delivered()).isEqualTo(1);
  }

  @Test
  void closingTheClientCompletesPendingWaitsWithAnEmptyList() throws Exception {
    Hourglass client = live();
    Queue<byte[]> a = client.queue("lp-close-a");
    Queue<byte[]> b = client.queue("lp-close-b");
    List<CompletableFuture<List<Delivery<byte[]>>>> waits =
        List.of(
            a.claimAsync(1, null, LONG_WAIT),
            a.claimAsync(3, null, LONG_WAIT),
            b.claimAsync(1, null, LONG_WAIT),
            CompletableFuture.supplyAsync(() -> b.claim(1, null, LONG_WAIT)));
    awaitParked(2); // one watcher per queue
    assertThat(waits).noneMatch(CompletableFuture::isDone);

    try (LettuceWarnings lettuce = new LettuceWarnings()) {
      client.close();
      for (CompletableFuture<List<Delivery<byte[]>>> w : waits) {
        assertThat(w.get(LIVENESS.toSeconds(), SECONDS)).isEmpty();
      }
      // The watchers close their blocking connections once: a second close makes Lettuce warn
      // "Connection is already closed" (it did, once per watcher, before).
      await()
          .atMost(LIVENESS)
          .until(
              () ->
                  Thread.getAllStackTraces().keySet().stream()
                      .noneMatch(t -> t.getName().startsWith("hourglass-wake-lp-close")));
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
    Queue<byte[]> consumer = client.queue("lp-close-busy");
    Queue<byte[]> producer = manual().queue("lp-close-busy");
    List<CompletableFuture<List<Delivery<byte[]>>>> waits = new CopyOnWriteArrayList<>();
    AtomicBoolean closing = new AtomicBoolean();
    for (int i = 0; i < 30; i++) {
      keepWaiting(consumer, waits, closing);
    }
    awaitParked(1);
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
    // Let the waiters take a hundred jobs: they wake, claim and wait again all the time now.
    await().atMost(LIVENESS).until(() -> waits.size() >= 30 + 100);
    closing.set(true);
    client.close(); // the producer is still busy: some waiters are mid-claim right now
    producing.set(false);

    CompletableFuture.allOf(waits.toArray(new CompletableFuture<?>[0]))
        .get(LIVENESS.toSeconds(), SECONDS);
    assertThat(waits).noneMatch(CompletableFuture::isCompletedExceptionally);
    System.out.println(
        produced.get(LIVENESS.toSeconds(), SECONDS)
            + " jobs enqueued, "
            + waits.size()
            + " long polls, all ended at close");
  }

  /** One waiter that claims again as soon as it got a job, until the client closes. */
  private static void keepWaiting(
      Queue<byte[]> q,
      List<CompletableFuture<List<Delivery<byte[]>>>> waits,
      AtomicBoolean closing) {
    if (closing.get()) {
      return;
    }
    CompletableFuture<List<Delivery<byte[]>>> w = q.claimAsync(1, VISIBILITY, LONG_WAIT);
    waits.add(w);
    w.thenRunAsync(() -> keepWaiting(q, waits, closing));
  }

  @Test
  void badArgumentsAreRefusedAtOnce() {
    Queue<byte[]> q = live().queue("lp-args");
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
    Queue<byte[]> q =
        client.configureQueue("lp-parts", QueueSettings.builder().partitions(4).build());
    Queue<byte[]> producer = manual().queue("lp-parts");
    assertThat(producer.settings().partitions()).isEqualTo(4);

    // Ids spread over the partitions by hash: 12 of them land on every partition but by bad luck.
    // While anyone waits, each partition's watcher blocks on its wake list.
    for (int i = 0; i < 12; i++) {
      CompletableFuture<List<Delivery<byte[]>>> waiting = q.claimAsync(1, VISIBILITY, LONG_WAIT);
      awaitParked(4);
      producer.enqueue(job("p" + i));
      assertThat(waiting.get(LIVENESS.toSeconds(), SECONDS))
          .extracting(Delivery::id)
          .containsExactly("p" + i);
    }

    // Many waiters over four partitions, a batch enqueued at once: each job exactly once.
    List<CompletableFuture<List<Delivery<byte[]>>>> waiters = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      waiters.add(q.claimAsync(1, VISIBILITY, LONG_WAIT));
    }
    awaitParked(4);
    producer.enqueueAll(ids("b", 20).stream().map(LongPollClaimTest::job).toList());
    CompletableFuture.allOf(waiters.toArray(new CompletableFuture<?>[0]))
        .get(LIVENESS.toSeconds(), SECONDS);
    Set<String> got = ConcurrentHashMap.newKeySet();
    for (CompletableFuture<List<Delivery<byte[]>>> w : waiters) {
      for (Delivery<byte[]> d : w.get()) {
        assertThat(got.add(d.id())).as("delivered twice: " + d.id()).isTrue();
      }
    }
    assertThat(got).isEqualTo(new HashSet<>(ids("b", 20)));
  }

  @Test
  void aWakeUpThatArrivesWhenNobodyWaitsReachesAWorkerOfAnotherClient() throws Exception {
    Queue<byte[]> longPoller = live().queue("lp-handoff");
    Queue<byte[]> producer = manual().queue("lp-handoff");
    // The long poll starts first, so its BLPOP queues ahead of the worker's at Redis and the next
    // token goes to this client's watcher, which must hand it on when its waiter is gone.
    CompletableFuture<List<Delivery<byte[]>>> shortPoll =
        longPoller.claimAsync(1, VISIBILITY, Duration.ofMillis(800));
    awaitParked(1);
    Set<String> handled = ConcurrentHashMap.newKeySet();
    live()
        .worker(
            "lp-handoff",
            job -> handled.add(job.id()),
            WorkerOptions.builder().idleWait(Duration.ofSeconds(60)).build());
    assertThat(shortPoll.get(LIVENESS.toSeconds(), SECONDS)).isEmpty();

    producer.enqueue(job("handed-on"));
    // Far within the worker's 60 s idle wait: the token reached it.
    await().atMost(LIVENESS).until(() -> handled.contains("handed-on"));
  }

  private static List<String> ids(String prefix, int n) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(prefix + i);
    }
    return ids;
  }
}
