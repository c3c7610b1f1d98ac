package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WorkerTest extends HourglassTestBase {

  @Test
  void acksOnReturnNacksOnExceptionKillsOnKillJob() {
    Hourglass h = live();
    Queue q = h.queue("work");
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
        .atMost(Duration.ofSeconds(10))
        .until(() -> q.stats().acked() == 2 && q.stats().dead() == 2);
    assertThat(attempts.get("ok")).containsExactly(1);
    assertThat(attempts.get("flaky")).containsExactly(1, 2, 3);
    assertThat(attempts.get("poison")).containsExactly(1);
    assertThat(attempts.get("hopeless")).containsExactly(1, 2);
    assertThat(q.get("hopeless").orElseThrow().lastError().orElseThrow()).contains("always");
    assertThat(q.get("poison").orElseThrow().lastError().orElseThrow()).contains("cannot parse");
    w.close();
  }

  @Test
  void neverClaimsAJobItHasNoFreeHandlerFor() {
    Hourglass h = live();
    Queue q = h.queue("bounded");
    for (int i = 0; i < 30; i++) {
      q.enqueue(job("b" + i));
    }
    AtomicInteger running = new AtomicInteger();
    AtomicInteger maxRunning = new AtomicInteger();
    List<Long> waitedForThreadMs = new CopyOnWriteArrayList<>();
    Worker w =
        h.worker(
            "bounded",
            job -> {
              // The lease began when the job was claimed; a job claimed beyond the free handler
              // threads would
              // wait here for a whole handler run (100 ms) or more.
              long claimedAt = job.leaseUntil().toEpochMilli() - job.visibility().toMillis();
              waitedForThreadMs.add(System.currentTimeMillis() - claimedAt);
              maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
              Thread.sleep(100);
              running.decrementAndGet();
            },
            WorkerOptions.builder().concurrency(3).maxClaim(50).build());
    await().atMost(Duration.ofSeconds(20)).until(() -> q.stats().acked() == 30);
    assertThat(maxRunning.get()).isEqualTo(3);
    assertThat(waitedForThreadMs)
        .hasSize(30)
        .allMatch(ms -> ms < 80, "started within 80 ms of its claim");
    w.close();
  }

  @Test
  void prefetchHoldsAtMostThatManyExtraLeasesAndCloseHandsBackTheUnstarted() throws Exception {
    Hourglass h = live();
    Queue q = h.queue("prefetch");
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
    // Two handlers block; five more jobs are leased and wait for a thread; thirteen stay ready.
    await().atMost(Duration.ofSeconds(10)).until(() -> q.stats().inflight() == 7);
    QueueOperationsTest.sleep(300); // give an over-claim the chance to show
    QueueStats held = q.stats();
    assertThat(held.inflight()).isEqualTo(7);
    assertThat(held.ready()).isEqualTo(13);
    assertThat(started).hasSize(2);

    Thread closer = new Thread(() -> w.close(Duration.ofSeconds(10)));
    closer.start();
    QueueOperationsTest.sleep(300);
    release.countDown(); // the two running handlers finish and ack
    closer.join(15_000);
    assertThat(closer.isAlive()).isFalse();

    QueueStats after = q.stats();
    assertThat(started).as("no prefetched job started after close").hasSize(2);
    assertThat(after.acked()).isEqualTo(2);
    assertThat(after.inflight()).as("prefetched leases handed back, not left to lapse").isZero();
    assertThat(after.ready()).isEqualTo(18);
    assertThat(after.retried()).isZero();
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
    // visibility after its start; it must come at once.
    Hourglass h = live();
    Queue q = h.queue("prefetch-lease");
    q.enqueueAll(List.of(job("a"), job("b")));
    Map<String, List<Integer>> runs = new ConcurrentHashMap<>();
    Worker w =
        h.worker(
            "prefetch-lease",
            job -> {
              recordAttempt(runs, job);
              Thread.sleep(job.id().equals("a") ? 1200 : 1500);
            },
            WorkerOptions.builder()
                .concurrency(1)
                .prefetch(1)
                .visibility(Duration.ofSeconds(2))
                .build());
    await().atMost(Duration.ofSeconds(15)).until(() -> q.stats().acked() == 2);
    QueueOperationsTest.sleep(500); // a second delivery would show up here
    assertThat(runs).containsOnly(Map.entry("a", List.of(1)), Map.entry("b", List.of(1)));
    assertThat(q.stats().retried()).isZero();
    w.close();
  }

  @Test
  void aPrefetchedJobWhoseLeaseRanOutWhileWaitingIsNotStarted() {
    // B's 500 ms lease runs out while A holds the only thread for 1500 ms: B must not run on that
    // lapsed delivery; it comes back by lease and runs once, as attempt 2.
    Hourglass h = live();
    Queue q = h.queue("prefetch-lapse");
    q.enqueueAll(List.of(job("a"), job("b")));
    Map<String, List<Integer>> runs = new ConcurrentHashMap<>();
    Worker w =
        h.worker(
            "prefetch-lapse",
            job -> {
              recordAttempt(runs, job);
              if (job.id().equals("a")) {
                Thread.sleep(1500);
              }
            },
            WorkerOptions.builder()
                .concurrency(1)
                .prefetch(1)
                .visibility(Duration.ofMillis(500))
                .autoExtend(true)
                .build());
    await().atMost(Duration.ofSeconds(10)).until(() -> q.stats().acked() == 2);
    QueueOperationsTest.sleep(500);
    assertThat(runs.get("b")).containsExactly(2);
    w.close();
  }

  @Test
  void longJobKeepsItsLeaseByAutoExtension() {
    Hourglass h = live();
    Queue q = h.queue("long");
    q.enqueue(spec("slow").visibility(Duration.ofMillis(300)).build());
    AtomicInteger deliveries = new AtomicInteger();
    Worker w =
        h.worker(
            "long",
            job -> {
              deliveries.incrementAndGet();
              Thread.sleep(1500); // five lease lengths
            });
    await().atMost(Duration.ofSeconds(10)).until(() -> q.stats().acked() == 1);
    assertThat(deliveries.get()).isEqualTo(1);
    assertThat(q.stats().retried()).isZero();
    w.close();
  }

  @Test
  void aJobThatNeedsAnExtensionSoonerThanTheOthersRunningGetsIt() {
    // The worker arms one timer for the earliest extension among its running jobs. "long" (4 s
    // lease) starts first and arms it 2 s out; "short" (300 ms lease) starts 300 ms later and needs
    // its first extension 150 ms into its run, long before that timer. Both run 1500 ms.
    Hourglass h = live();
    Queue q = h.queue("mixed-leases");
    q.enqueue(spec("long").visibility(Duration.ofSeconds(4)).build());
    q.enqueue(
        spec("short").visibility(Duration.ofMillis(300)).delay(Duration.ofMillis(300)).build());
    Map<String, List<Integer>> runs = new ConcurrentHashMap<>();
    Worker w =
        h.worker(
            "mixed-leases",
            job -> {
              recordAttempt(runs, job);
              Thread.sleep(1500);
            },
            WorkerOptions.builder().concurrency(2).build());
    await().atMost(Duration.ofSeconds(10)).until(() -> q.stats().acked() == 2);
    QueueOperationsTest.sleep(500); // a second delivery would show up here
    assertThat(runs).containsOnly(Map.entry("long", List.of(1)), Map.entry("short", List.of(1)));
    assertThat(q.stats().retried()).isZero();
    w.close();
  }

  @Test
  void idleWorkersDoNotPoll() {
    Hourglass h = live();
    Queue q = h.queue("idle");
    q.enqueue(job("warm"));
    Set<String> seen = ConcurrentHashMap.newKeySet();
    List<Worker> workers = new CopyOnWriteArrayList<>();
    for (int i = 0; i < 10; i++) {
      workers.add(h.worker("idle", job -> seen.add(job.id()), WorkerOptions.defaults()));
    }
    await().atMost(Duration.ofSeconds(5)).until(() -> seen.contains("warm"));
    QueueOperationsTest.sleep(1000);
    long before = totalCommands();
    QueueOperationsTest.sleep(10_000);
    long perSecond = (totalCommands() - before) / 10;
    // Counted as Redis counts them, commands inside scripts included. In this 10 s window the
    // workers sit in
    // BLPOP (30 s idleWait) and cost nothing; the promoter's idle sweep costs EVALSHA + HMGET +
    // TIME per second
    // plus a lock renewal every other second; the test's own INFO calls add 2. The target is 5 per
    // second.
    assertThat(perSecond).isLessThanOrEqualTo(5);
    System.out.println("idle: 10 workers + promoter = " + perSecond + " Redis commands/s");
    workers.forEach(Worker::close);
  }

  @Test
  void jobDueIn200msArrivesWithinOneSecond() {
    Hourglass h = live();
    Queue q = h.queue("soon");
    List<Long> arrivals = new CopyOnWriteArrayList<>();
    Worker w = h.worker("soon", job -> arrivals.add(System.currentTimeMillis()));
    QueueOperationsTest.sleep(300); // the worker is idle and blocked
    long start = System.currentTimeMillis();
    EnqueueResult r = q.enqueue(spec("soon").delay(Duration.ofMillis(200)).build());
    await().atMost(Duration.ofSeconds(1)).until(() -> arrivals.size() == 1);
    assertThat(arrivals.get(0)).isGreaterThanOrEqualTo(r.runAt().toEpochMilli());
    assertThat(arrivals.get(0) - start).isBetween(200L, 1000L);
    w.close();
  }

  static long totalCommands() {
    String info = redis.server().command("INFO", "stats");
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("total_commands_processed:")) {
        return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
      }
    }
    throw new AssertionError("no total_commands_processed in " + info);
  }

  /** Notes a delivery's attempt number under its job id; safe from several handler threads. */
  private static void recordAttempt(Map<String, List<Integer>> attempts, Delivery job) {
    attempts.computeIfAbsent(job.id(), k -> new CopyOnWriteArrayList<>()).add(job.attempt());
  }
}
