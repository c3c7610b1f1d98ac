package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WorkerTest extends HourglassTestBase {
  private static final Duration LIVENESS = RedisProbe.LIVENESS;

  @Test
  void acksOnReturnNacksOnExceptionKillsOnKillJob() {
    Hourglass h = live();
    Queue<byte[]> q = h.queue("work");
    Map<String, List<Integer>> attempts = new ConcurrentHashMap<>();
    q.enqueue(job("ok"));
    q.enqueue(spec("flaky").backoff(Backoff.fixed(Duration.ofMillis(50))).build());
    q.enqueue(spec("poison").maxAttempts(5).build());
    q.enqueue(
        spec("hopeless").maxAttempts(2).backoff(Backoff.fixed(Duration.ofMillis(10))).build());
    Worker w =
        h.worker(
            "work",
            job -> {
              recordAttempt(attempts, job);
              switch (job.id()) {
                case "flaky" -> {
                  if (job.attempt() < 3)
                    throw new IllegalStateException("not yet " + job.attempt());
                }
                case "poison" -> throw new KillJobException("cannot parse");
                case "hopeless" -> throw new RuntimeException("always");
                default -> {}
              }
            });
    await()
        .atMost(LIVENESS)
        .until(() -> q.stats().counters().acked() == 2 && q.stats().dead() == 2);
    assertThat(attempts.get("ok")).containsExactly(1);
    assertThat(attempts.get("flaky")).containsExactly(1, 2, 3);
    assertThat(attempts.get("poison")).containsExactly(1);
    assertThat(attempts.get("hopeless")).containsExactly(1, 2);
    assertThat(q.get("hopeless").orElseThrow().lastError())
        .hasValue("java.lang.RuntimeException: always");
    assertThat(q.get("poison").orElseThrow().lastError())
        .hasValue("dev.hourglass.KillJobException: cannot parse");
    w.close();
  }

  /**
   * A JVM error (a VirtualMachineError: out of memory, an internal error) is the process's failure,
   * not the job's: the attempt is not settled as a failure with the error's message; the job comes
   * back when its lease lapses, and the worker goes on with a new handler thread.
   */
  @Test
  void aJvmErrorIsNotSettledAsTheJobsFailure() {
    Hourglass h = live();
    Queue<byte[]> q = h.queue("fatal");
    q.enqueue(spec("oom").visibility(Duration.ofSeconds(1)).build());
    List<Delivery<byte[]>> deliveries = new CopyOnWriteArrayList<>();
    Worker w =
        h.worker(
            "fatal",
            job -> {
              deliveries.add(job.delivery());
              if (job.attempt() == 1) {
                throw new InternalError(
                    "simulated"); // a VirtualMachineError, as OutOfMemoryError is
              }
            });
    await()
        .dontCatchUncaughtExceptions() // the error goes on to the handler thread's end, as it
        // should
        .atMost(LIVENESS)
        .until(() -> q.stats().counters().acked() == 1);
    w.close();
    assertThat(deliveries).extracting(Delivery::attempt).containsExactly(1, 2);
    assertThat(deliveries.get(1).lastError())
        .as("the second delivery does not carry the error as the job's failure")
        .isNotEqualTo(Optional.of("java.lang.InternalError: simulated"));
  }

  /** A stack overflow is the handler's own recursion: it fails the attempt like an exception. */
  @Test
  void aStackOverflowFailsTheAttempt() {
    Hourglass h = live();
    Queue<byte[]> q = h.queue("deep");
    q.enqueue(spec("deep").maxAttempts(1).build());
    Worker w =
        h.worker(
            "deep",
            job -> {
              throw new StackOverflowError("recursed");
            });
    await().atMost(LIVENESS).until(() -> q.stats().dead() == 1);
    w.close();
    assertThat(q.get("deep").orElseThrow().lastError())
        .hasValue("java.lang.StackOverflowError: recursed");
  }

  @Test
  void theLastErrorIsOneLineOfTheExceptionAndItsCausesAtMost1000Characters() {
    Hourglass h = live();
    Queue<byte[]> q = h.queue("errors");
    q.enqueue(spec("chained").maxAttempts(1).build());
    q.enqueue(spec("long").maxAttempts(1).build());
    q.enqueue(spec("retried").maxAttempts(2).backoff(Backoff.fixed(Duration.ZERO)).build());
    Map<String, List<Delivery<byte[]>>> deliveries = new ConcurrentHashMap<>();
    Worker w =
        h.worker(
            "errors",
            job -> {
              deliveries
                  .computeIfAbsent(job.id(), k -> new CopyOnWriteArrayList<>())
                  .add(job.delivery());
              switch (job.id()) {
                case "chained" ->
                    throw new IllegalStateException(
                        "boom\n  in the second line",
                        new IOException("disk full", new IllegalArgumentException()));
                case "long" -> throw new IllegalArgumentException("x".repeat(5000));
                case "retried" -> {
                  if (job.attempt() == 1) {
                    throw new IllegalStateException("first try");
                  }
                }
                default -> {}
              }
            });
    await()
        .atMost(LIVENESS)
        .until(() -> q.stats().dead() == 2 && q.stats().counters().acked() == 1);

    assertThat(q.get("chained").orElseThrow().lastError())
        .hasValue(
            "java.lang.IllegalStateException: boom in the second line"
                + "; caused by java.io.IOException: disk full"
                + "; caused by java.lang.IllegalArgumentException");
    String cut = q.get("long").orElseThrow().lastError().orElseThrow();
    assertThat(cut).hasSize(1000).startsWith("java.lang.IllegalArgumentException: xxx");
    assertThat(deliveries.get("retried"))
        .extracting(Delivery::lastError)
        .as("the retry carries the first attempt's error")
        .containsExactly(
            Optional.empty(), Optional.of("java.lang.IllegalStateException: first try"));
    w.close();
  }

  @Test
  void neverClaimsAJobItHasNoFreeHandlerFor() throws Exception {
    Hourglass h = live();
    Queue<byte[]> q = h.queue("bounded");
    for (int i = 0; i < 30; i++) {
      q.enqueue(job("b" + i));
    }
    CompletableFuture<Worker> self = new CompletableFuture<>();
    AtomicInteger running = new AtomicInteger();
    AtomicInteger maxRunning = new AtomicInteger();
    AtomicInteger maxHeld = new AtomicInteger();
    AtomicLong maxLeases = new AtomicLong();
    // The first three handlers meet, so all three threads provably ran at once.
    CountDownLatch firstThree = new CountDownLatch(3);
    Worker w =
        h.worker(
            "bounded",
            job -> {
              maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
              firstThree.countDown();
              firstThree.await(LIVENESS.toMillis(), TimeUnit.MILLISECONDS);
              // Held by the worker (running or waiting for a thread), and leased in Redis.
              maxHeld.accumulateAndGet(
                  self.get(LIVENESS.toMillis(), TimeUnit.MILLISECONDS).inFlight(), Math::max);
              maxLeases.accumulateAndGet(q.stats().inflight(), Math::max);
              Thread.sleep(100); // the handler's work, long enough for a claim to overreach
              running.decrementAndGet();
            },
            WorkerOptions.builder().concurrency(3).prefetch(0).maxClaim(50).build());
    self.complete(w);
    await().atMost(LIVENESS).until(() -> q.stats().counters().acked() == 30);
    assertThat(maxRunning.get()).isEqualTo(3);
    assertThat(maxHeld.get()).as("jobs the worker held at once").isEqualTo(3);
    assertThat(maxLeases.get()).as("leases in Redis at once").isLessThanOrEqualTo(3);
    w.close();
  }

  @Test
  void prefetchHoldsOneJobPerThreadUntilAHandlerFinishesAndCloseHandsBackTheUnstarted()
      throws Exception {
    Hourglass h = live();
    Queue<byte[]> q = h.queue("prefetch");
    for (int i = 0; i < 20; i++) {
      q.enqueue(job("p" + i));
    }
    CountDownLatch release = new CountDownLatch(1);
    Set<String> started = ConcurrentHashMap.newKeySet();
    Worker w =
        h.worker(
            "prefetch",
            job -> {
              started.add(job.id());
              release.await();
            },
            WorkerOptions.builder().concurrency(2).prefetch(5).maxClaim(50).build());
    // No handler finishes, so the adaptive prefetch keeps its start: one job per thread. Two
    // handlers block, two more jobs are leased and wait for a thread, sixteen stay ready; and it
    // stays so (a claim beyond that would show within the window).
    await()
        .atMost(LIVENESS)
        .during(Duration.ofMillis(500))
        .until(
            () -> {
              QueueStats s = q.stats();
              return s.inflight() == 4 && s.ready() == 16 && w.inFlight() == 4;
            });
    assertThat(started).hasSize(2);

    Thread closer = new Thread(() -> w.close(LIVENESS));
    closer.start();
    // The two waiting jobs go back at once, while both handlers still block.
    await()
        .atMost(LIVENESS)
        .until(() -> q.stats().inflight() == 2 && q.stats().ready() == 18 && w.inFlight() == 2);
    assertThat(closer.isAlive()).as("close waits for the running handlers").isTrue();
    release.countDown(); // the two running handlers finish and ack
    closer.join(LIVENESS.toMillis());
    assertThat(closer.isAlive()).isFalse();

    QueueStats after = q.stats();
    assertThat(started).as("no prefetched job started after close").hasSize(2);
    assertThat(after.counters().acked()).isEqualTo(2);
    assertThat(after.inflight()).as("prefetched leases handed back, not left to lapse").isZero();
    assertThat(after.ready()).isEqualTo(18);
    assertThat(after.counters().retried()).isZero();
    assertThat(after.counters().delivered()).isEqualTo(4);
    for (int i = 0; i < 20; i++) {
      String id = "p" + i;
      if (!started.contains(id)) {
        assertThat(q.get(id).orElseThrow().attempts()).as("%s's attempt not counted", id).isZero();
      }
    }
  }

  @Test
  void aPrefetchedJobsLeaseIsExtendedFromItsClaimNotFromItsStart() {
    // One thread, one prefetched job, 2 s leases. B waits 1200 ms for A, then runs 1500 ms: its
    // lease (from the claim) would end 800 ms into its run, before a first extension half a
    // visibility after its start; it must come from the claim on.
    Hourglass h = live();
    Queue<byte[]> q = h.queue("prefetch-lease");
    q.enqueueAll(List.of(job("a"), job("b")));
    Map<String, List<Integer>> runs = new ConcurrentHashMap<>();
    Worker w =
        h.worker(
            "prefetch-lease",
            job -> {
              recordAttempt(runs, job);
              Thread.sleep(job.id().equals("a") ? 1200 : 1500); // the handlers' work
            },
            WorkerOptions.builder()
                .concurrency(1)
                .prefetch(1)
                .visibility(Duration.ofSeconds(2))
                .build());
    awaitAllSettled(q, 2);
    assertDeliveredOnceEach(q, runs, "a", "b");
    w.close();
  }

  @Test
  void aPrefetchedJobWhoseLeaseRanOutWhileWaitingIsNotStarted() {
    // Without autoExtend, B's 1 s lease runs out while A holds the only thread: B must not run on
    // that lapsed delivery; it comes back by lease and runs once, as attempt 2.
    Queue<byte[]> q = runAWhileBWaitsPastItsLease("prefetch-lapse", false);
    QueueStats s = q.stats();
    assertThat(s.counters().delivered()).as("a once, b twice").isEqualTo(3);
    assertThat(s.counters().retried()).as("b's lapsed lease").isEqualTo(1);
  }

  @Test
  void aPrefetchedJobWaitingPastItsFirstLeaseKeepsItByAutoExtension() {
    // With autoExtend, the lease of a job waiting for a thread is kept like a running one's: B
    // waits past the end of its first lease and still runs once, as attempt 1.
    Queue<byte[]> q = runAWhileBWaitsPastItsLease("prefetch-kept", true);
    QueueStats s = q.stats();
    assertThat(s.counters().delivered()).as("each once").isEqualTo(2);
    assertThat(s.counters().retried()).isZero();
  }

  /**
   * One thread; A and B are claimed together (the first claim takes one job per thread beyond the
   * thread). A, leased for 30 s, holds the thread until the Redis clock has passed the end of B's 1
   * s lease as A found it when it started; B waits meanwhile. Returns the queue once both are
   * settled, after checking who ran how often.
   */
  private Queue runAWhileBWaitsPastItsLease(String queue, boolean autoExtend) {
    Hourglass h = live();
    Queue<byte[]> q = h.queue(queue);
    q.enqueueAll(
        List.of(
            spec("a").visibility(Duration.ofSeconds(30)).build(),
            spec("b").visibility(Duration.ofSeconds(1)).build()));
    Map<String, List<Integer>> runs = new ConcurrentHashMap<>();
    List<Integer> bHeldWhenAStarted = new CopyOnWriteArrayList<>();
    Worker w =
        h.worker(
            queue,
            job -> {
              recordAttempt(runs, job);
              if (job.id().equals("a")) {
                JobInfo<byte[]> b = q.get("b").orElseThrow();
                bHeldWhenAStarted.add(b.state() == JobState.INFLIGHT ? 1 : 0);
                awaitRedisClockPast(b.leaseUntil().orElse(Instant.EPOCH));
              }
            },
            WorkerOptions.builder().concurrency(1).prefetch(1).autoExtend(autoExtend).build());
    awaitAllSettled(q, 2);
    assertThat(bHeldWhenAStarted)
        .as("b was leased with a, waiting for the thread")
        .containsExactly(1);
    assertThat(runs.get("a")).containsExactly(1);
    assertThat(runs.get("b")).containsExactly(autoExtend ? 1 : 2);
    w.close();
    return q;
  }

  @Test
  void longJobKeepsItsLeaseByAutoExtension() {
    Hourglass h = live();
    Queue<byte[]> q = h.queue("long");
    // A lease of 1 s: the first extension is due after 500 ms and must reach Redis before the lease
    // ends. With 300 ms it failed on a machine loaded to 10 runnable threads per core.
    q.enqueue(spec("slow").visibility(Duration.ofSeconds(1)).build());
    Map<String, List<Integer>> runs = new ConcurrentHashMap<>();
    Worker w =
        h.worker(
            "long",
            job -> {
              recordAttempt(runs, job);
              Thread.sleep(3500); // the handler's work: three and a half lease lengths
            });
    awaitAllSettled(q, 1);
    assertDeliveredOnceEach(q, runs, "slow");
    w.close();
  }

  @Test
  void aJobThatNeedsAnExtensionSoonerThanTheOthersRunningGetsIt() {
    // The worker arms one timer for the earliest extension among its running jobs. "long" (4 s
    // lease) starts first and arms it 2 s out; "short" (300 ms lease) starts 300 ms later and needs
    // its first extension 150 ms into its run, long before that timer. Both run 1500 ms.
    Hourglass h = live();
    Queue<byte[]> q = h.queue("mixed-leases");
    q.enqueue(spec("long").visibility(Duration.ofSeconds(4)).build());
    q.enqueue(
        spec("short").visibility(Duration.ofMillis(300)).delay(Duration.ofMillis(300)).build());
    Map<String, List<Integer>> runs = new ConcurrentHashMap<>();
    Worker w =
        h.worker(
            "mixed-leases",
            job -> {
              recordAttempt(runs, job);
              Thread.sleep(1500); // the handlers' work
            },
            WorkerOptions.builder().concurrency(2).build());
    awaitAllSettled(q, 2);
    assertDeliveredOnceEach(q, runs, "long", "short");
    w.close();
  }

  @Test
  void idleWorkersOfAQueueShareOneBlockingWaitThatSendsNothingElse() {
    // What idle workers cost in Redis commands per second is the bench's idle workload; here the
    // structure that makes it small: the idle claim loops of every worker of a queue in one client
    // wait on the queue's one wake-up watcher, which sits in one BLPOP per partition on its own
    // connection and sends nothing else while it waits (CLIENT LIST idle).
    Hourglass h = live();
    Queue<byte[]> q = h.configureQueue("idle", QueueSettings.builder().partitions(2).build());
    q.enqueue(job("warm"));
    Set<String> seen = ConcurrentHashMap.newKeySet();
    for (int i = 0; i < 10; i++) {
      h.worker("idle", job -> seen.add(job.id()), WorkerOptions.defaults());
    }
    await().atMost(LIVENESS).until(() -> seen.contains("warm"));
    await("one BLPOP per partition for at least 2 s, for all ten workers")
        .atMost(LIVENESS)
        .until(
            () -> {
              List<RedisProbe.Client> blocked = blockedInBlpop();
              return blocked.size() == 2 && blocked.stream().allMatch(c -> c.idleSeconds() >= 2);
            });
  }

  @Test
  void aDelayedJobReachesAnIdleWorkerWhenDueNotBefore() {
    // The worker's idle wait (60 s) is longer than the test waits: the job can only arrive through
    // the wake-up the promoter sends when it falls due.
    Hourglass h = live();
    Queue<byte[]> q = h.queue("soon");
    List<Long> arrivals = new CopyOnWriteArrayList<>();
    h.worker(
        "soon",
        job -> arrivals.add(System.currentTimeMillis()),
        WorkerOptions.builder().idleWait(Duration.ofSeconds(60)).build());
    await("the worker is idle and blocked")
        .atMost(LIVENESS)
        .until(() -> blockedInBlpop().size() == 1);
    EnqueueResult r = q.enqueue(spec("soon").delay(Duration.ofMillis(200)).build());
    await().atMost(LIVENESS).until(() -> arrivals.size() == 1);
    // Redis runs on this host: its clock and this JVM's are the same.
    assertThat(arrivals.get(0)).isGreaterThanOrEqualTo(r.runAt().toEpochMilli());
  }

  /** Waits until {@code n} jobs are acked and nothing is left: no delivery can follow. */
  private static void awaitAllSettled(Queue<byte[]> q, int n) {
    await()
        .atMost(LIVENESS)
        .until(
            () -> {
              QueueStats s = q.stats();
              return s.counters().acked() == n && s.total() == 0;
            });
  }

  /** Each job ran once, as attempt 1, and Redis delivered it once. */
  private static void assertDeliveredOnceEach(
      Queue<byte[]> q, Map<String, List<Integer>> runs, String... ids) {
    assertThat(runs).hasSize(ids.length);
    for (String id : ids) {
      assertThat(runs.get(id)).as("attempts of %s", id).containsExactly(1);
    }
    QueueStats s = q.stats();
    assertThat(s.counters().delivered()).isEqualTo(ids.length);
    assertThat(s.counters().retried()).isZero();
  }

  /** Notes a delivery's attempt number under its job id; safe from several handler threads. */
  private static void recordAttempt(Map<String, List<Integer>> attempts, Job<byte[]> job) {
    attempts.computeIfAbsent(job.id(), k -> new CopyOnWriteArrayList<>()).add(job.attempt());
  }
}
