package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The default prefetch adapts to the handlers' speed, and the lease of every job a worker holds is
 * kept, waiting or running: prefetch is a question of speed, never of safety.
 */
class PrefetchTest extends HourglassTestBase {

  private static List<JobSpec> jobs(String prefix, int n) {
    List<JobSpec> specs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      specs.add(job(prefix + i));
    }
    return specs;
  }

  @Test
  void aHandlerThatSlowsTenfoldMidBurstLosesNoLeaseAndRunsNoJobTwice() {
    Hourglass h = live();
    Queue<byte[]> q = h.queue("slowdown");
    int total = 600;
    q.enqueueAll(jobs("s", total));
    Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    AtomicInteger handled = new AtomicInteger();
    AtomicInteger mostHeld = new AtomicInteger();
    Worker[] worker = new Worker[1];
    // 1 s leases: the jobs prefetched while handlers took 2 ms wait far longer than that once
    // they take 20 ms, so only the kept leases save them.
    worker[0] =
        h.worker(
            "slowdown",
            job -> {
              runs.computeIfAbsent(job.id(), k -> new AtomicInteger()).incrementAndGet();
              assertThat(job.attempt()).isEqualTo(1);
              if (worker[0] != null) {
                mostHeld.accumulateAndGet(worker[0].inFlight(), Math::max);
              }
              Thread.sleep(handled.incrementAndGet() <= 150 ? 2 : 20);
            },
            WorkerOptions.builder().concurrency(4).visibility(Duration.ofSeconds(1)).build());

    await().atMost(Duration.ofSeconds(60)).until(() -> q.stats().counters().acked() == total);

    assertThat(runs).hasSize(total);
    assertThat(runs.values()).allMatch(n -> n.get() == 1, "each job ran once");
    QueueStats stats = q.stats();
    assertThat(stats.counters().retried()).as("no lease lapsed").isZero();
    assertThat(stats.counters().delivered()).isEqualTo(total);
    assertThat(mostHeld.get())
        .as("the worker prefetched (held far more jobs than its 4 threads)")
        .isGreaterThan(40);
    worker[0].close();
  }

  @Test
  void slowHandlersHoldFewJobsSoThatAnotherWorkerGetsItsShare() {
    Hourglass first = live();
    Hourglass second = live();
    Queue<byte[]> q = first.queue("share");
    int total = 60;
    q.enqueueAll(jobs("f", total));
    Map<String, AtomicInteger> byWorker = new ConcurrentHashMap<>();
    JobHandler slowA =
        job -> {
          byWorker.computeIfAbsent("a", k -> new AtomicInteger()).incrementAndGet();
          Thread.sleep(100);
        };
    JobHandler slowB =
        job -> {
          byWorker.computeIfAbsent("b", k -> new AtomicInteger()).incrementAndGet();
          Thread.sleep(100);
        };
    WorkerOptions options = WorkerOptions.builder().concurrency(2).build();
    Worker a = first.worker("share", slowA, options);
    Worker b = second.worker("share", slowB, options);

    await().atMost(Duration.ofSeconds(60)).until(() -> q.stats().counters().acked() == total);

    // A fixed prefetch of 1000 would let the first worker lease all 60 at once.
    assertThat(byWorker.get("a")).hasValueGreaterThanOrEqualTo(10);
    assertThat(byWorker.get("b")).hasValueGreaterThanOrEqualTo(10);
    a.close();
    b.close();
  }

  @Test
  void withoutPrefetchAWorkerNeverHoldsMoreJobsThanThreads() {
    Hourglass h = live();
    Queue<byte[]> q = h.queue("no-prefetch");
    q.enqueueAll(jobs("n", 30));
    AtomicInteger mostHeld = new AtomicInteger();
    AtomicInteger mostLeased = new AtomicInteger();
    Worker[] worker = new Worker[1];
    worker[0] =
        h.worker(
            "no-prefetch",
            job -> {
              if (worker[0] != null) {
                mostHeld.accumulateAndGet(worker[0].inFlight(), Math::max);
              }
              mostLeased.accumulateAndGet((int) q.stats().inflight(), Math::max);
              Thread.sleep(20);
            },
            WorkerOptions.builder().concurrency(3).prefetch(0).maxClaim(50).build());

    await().atMost(Duration.ofSeconds(30)).until(() -> q.stats().counters().acked() == 30);

    assertThat(mostHeld.get()).isBetween(1, 3);
    assertThat(mostLeased.get()).as("leases in Redis").isBetween(1, 3);
    worker[0].close();
  }
}
