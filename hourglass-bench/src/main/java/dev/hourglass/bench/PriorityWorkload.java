package dev.hourglass.bench;

import dev.hourglass.EnqueueResult;
import dev.hourglass.Hourglass;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import dev.hourglass.Worker;
import dev.hourglass.WorkerOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Priority under load: {@code --jobs} jobs of priority 9 due uniformly over the delay range (1-5 s
 * by default), consumed by one worker of {@code --consumers} threads whose handler takes 1 ms per
 * job, first on an empty queue, then while {@code --backlog} jobs of priority 0 are ready (100,000
 * by default). Lateness = the handler's wall clock - the job's due time (Redis's clock; same
 * machine), for the priority-9 jobs only. The worker leases no more than its free threads (prefetch
 * 0), so a priority-9 job waits for a free thread, not behind jobs a client holds already: what is
 * measured is the claim order in Redis. Both rounds run first unreported at a tenth of the size, to
 * warm the JIT. Hourglass only.
 */
final class PriorityWorkload implements Workload {
  private static final int DEFAULT_JOBS = 1000;
  private static final int DEFAULT_BACKLOG = 100_000;
  private static final int BATCH = 1000;
  private static final long WORK_MS = 1;

  @Override
  public String name() {
    return "priority";
  }

  @Override
  public Fields run(SystemUnderTest sut, RedisTarget redis, Options o) throws Exception {
    int jobs = o.jobs(DEFAULT_JOBS);
    int backlog = o.backlog(DEFAULT_BACKLOG);
    Options.Delays delays = o.delays(1000, 5000);
    try (Hourglass hourglass = Hourglass.builder().redisUri(redis.uri()).build()) {
      // Unreported: the same rounds at a tenth of the size warm the JIT first.
      int few = Math.max(1, jobs / 10);
      round(hourglass.queue(Bench.QUEUE + "-warmup"), few, 0, delays, o);
      round(hourglass.queue(Bench.QUEUE + "-warmup"), few, backlog / 10, delays, o);
      Fields empty = round(hourglass.queue(Bench.QUEUE + "-empty"), jobs, 0, delays, o);
      Fields loaded = round(hourglass.queue(Bench.QUEUE), jobs, backlog, delays, o);
      return new Fields()
          .put("jobs", jobs)
          .put("backlog", backlog)
          .put("delay_ms", delays.toString())
          .put("consumers", o.consumers(4))
          .putAll("empty_", empty)
          .putAll("", loaded)
          .put("timed_out", empty.num("delivered") < jobs || loaded.num("delivered") < jobs);
    }
  }

  /**
   * Enqueues {@code backlog} ready jobs of priority 0, then {@code jobs} of priority 9 due over the
   * delays, and consumes until every priority-9 job came or the timeout passed.
   */
  private static Fields round(
      Queue<byte[]> queue, int jobs, int backlog, Options.Delays delays, Options o)
      throws Exception {
    List<JobSpec> batch = new ArrayList<>();
    for (int i = 0; i < backlog; i++) {
      batch.add(queue.spec(("{\"b\":" + i + "}").getBytes()).priority(0).build());
      if (batch.size() == BATCH || i == backlog - 1) {
        queue.enqueueAll(batch);
        batch.clear();
      }
    }
    Map<String, Long> due = new ConcurrentHashMap<>();
    Map<String, Long> arrived = new ConcurrentHashMap<>();
    WorkerOptions options = WorkerOptions.builder().concurrency(o.consumers(4)).prefetch(0).build();
    try (Worker worker =
        queue.worker(
            job -> {
              if (job.priority() == 9) {
                arrived.putIfAbsent(job.id(), System.currentTimeMillis());
              }
              Thread.sleep(WORK_MS); // the job's work
            },
            options)) {
      Random random = new Random(o.seed());
      long span = delays.maxMs() - delays.minMs();
      for (int i = 0; i < jobs; i++) {
        long delay = delays.minMs() + (span == 0 ? 0 : (long) (random.nextDouble() * span));
        batch.add(
            queue
                .spec(("{\"p\":" + i + "}").getBytes())
                .priority(9)
                .delay(Duration.ofMillis(delay))
                .build());
        if (batch.size() == BATCH || i == jobs - 1) {
          for (EnqueueResult r : queue.enqueueAll(batch)) {
            due.put(r.id(), r.runAt().toEpochMilli());
          }
          batch.clear();
        }
      }
      long giveUp =
          System.nanoTime()
              + TimeUnit.MILLISECONDS.toNanos(delays.maxMs())
              + TimeUnit.SECONDS.toNanos(o.timeoutSeconds());
      while (arrived.size() < jobs && System.nanoTime() < giveUp) {
        Thread.sleep(20); // the harness polls its own counter; no test synchronises on this
      }
      long readyLeft = queue.stats().ready();
      long[] late =
          arrived.entrySet().stream()
              .mapToLong(e -> e.getValue() - due.get(e.getKey()))
              .sorted()
              .toArray();
      int n = late.length;
      return new Fields()
          .put("delivered", n)
          .put("early", Arrays.stream(late).filter(x -> x < 0).count())
          .put("lateness_p50_ms", Burst.percentile(late, 0.50))
          .put("lateness_p99_ms", Burst.percentile(late, 0.99))
          .put("lateness_max_ms", n == 0 ? -1 : late[n - 1])
          .put("backlog_ready_at_end", readyLeft);
    }
  }

  @Override
  public Fields ratio(Fields hourglass, Fields redisson) {
    return new Fields(); // Hourglass only: Bench prints note=needs_both_systems
  }
}
