package dev.hourglass;

import dev.hourglass.testing.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Semaphore;

/**
 * Quick figures of the core engine on a fresh embedded Redis: memory per pending job, enqueue
 * rates, lateness. Run with {@code scripts/quick-figures [jobs]}. The benchmark module compares
 * with Redisson; this is the quick check. Every number printed is measured in this run.
 */
public final class QuickFigures {
  private static final int PAYLOAD = 120;

  public static void main(String[] args) throws Exception {
    int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    try (RedisServer server = RedisServer.builder().build()) {
      server.start();
      System.out.println(
          "redis " + info(server, "server", "redis_version") + ", payload " + PAYLOAD + " B");
      memory(server, jobs);
      enqueueRates(server, jobs);
      lateness(server, jobs);
    }
  }

  static Hourglass client(RedisServer server) {
    return Hourglass.builder().redisUri(server.uri()).build();
  }

  static byte[] payload(Random r) {
    byte[] b = new byte[PAYLOAD];
    r.nextBytes(b);
    return b;
  }

  static void memory(RedisServer server, int jobs) {
    server.flushAll();
    try (Hourglass h =
        Hourglass.builder().redisUri(server.uri()).backgroundPromoter(false).build()) {
      Queue q = h.queue("memory");
      q.enqueue(JobSpec.builder().id("warm").payload("x").delay(Duration.ofHours(1)).build());
      q.cancel("warm");
      long before = Long.parseLong(info(server, "memory", "used_memory"));
      Random r = new Random(1);
      List<JobSpec> batch = new ArrayList<>();
      for (int i = 0; i < jobs; i++) {
        batch.add(
            JobSpec.builder()
                .payload(payload(r))
                .delay(Duration.ofMinutes(60 + r.nextInt(60)))
                .build());
        if (batch.size() == 1000) {
          q.enqueueAll(batch);
          batch.clear();
        }
      }
      q.enqueueAll(batch);
      long after = Long.parseLong(info(server, "memory", "used_memory"));
      System.out.printf(
          "RESULT workload=memory jobs=%d bytes_per_job=%d (%d pending, delays 1-2 h)%n",
          jobs, (after - before) / jobs, q.stats().delayed());
    }
  }

  static void enqueueRates(RedisServer server, int jobs) throws Exception {
    server.flushAll();
    try (Hourglass h = client(server)) {
      Queue q = h.queue("rate");
      Random r = new Random(2);
      byte[] p = payload(r);
      Semaphore window = new Semaphore(2000);
      long start = System.nanoTime();
      List<CompletableFuture<EnqueueResult>> pending = new ArrayList<>(jobs);
      for (int i = 0; i < jobs; i++) {
        window.acquire();
        CompletableFuture<EnqueueResult> f =
            q.enqueueAsync(JobSpec.builder().payload(p).delay(Duration.ofMinutes(30)).build());
        f.whenComplete((x, e) -> window.release());
        pending.add(f);
      }
      CompletableFuture.allOf(pending.toArray(new CompletableFuture<?>[0])).join();
      double single = jobs / ((System.nanoTime() - start) / 1e9);
      server.flushAll();
      Queue b = h.queue("rate-batch");
      start = System.nanoTime();
      List<JobSpec> batch = new ArrayList<>();
      for (int i = 0; i < jobs; i++) {
        batch.add(JobSpec.builder().payload(p).delay(Duration.ofMinutes(30)).build());
        if (batch.size() == 1000) {
          b.enqueueAll(batch);
          batch.clear();
        }
      }
      b.enqueueAll(batch);
      double batched = jobs / ((System.nanoTime() - start) / 1e9);
      System.out.printf(
          "RESULT workload=enqueue jobs=%d single_async_jobs_per_s=%.0f batch1000_jobs_per_s=%.0f%n",
          jobs, single, batched);
    }
  }

  static void lateness(RedisServer server, int jobs) throws Exception {
    server.flushAll();
    try (Hourglass h = client(server)) {
      Queue q = h.queue("late");
      ConcurrentMap<String, Long> late = new ConcurrentHashMap<>();
      Worker w =
          h.worker(
              "late",
              job -> late.put(job.id(), System.currentTimeMillis() - job.dueAt().toEpochMilli()),
              WorkerOptions.builder().concurrency(4).build());
      Random r = new Random(3);
      byte[] p = payload(r);
      List<JobSpec> batch = new ArrayList<>();
      long start = System.currentTimeMillis();
      for (int i = 0; i < jobs; i++) {
        batch.add(
            JobSpec.builder()
                .payload(p)
                .runAt(java.time.Instant.ofEpochMilli(start + 1000 + r.nextInt(2000)))
                .build());
        if (batch.size() == 1000) {
          q.enqueueAll(batch);
          batch.clear();
        }
      }
      q.enqueueAll(batch);
      long enqueuedAt = System.currentTimeMillis();
      long deadline = System.currentTimeMillis() + 120_000;
      while (late.size() < jobs && System.currentTimeMillis() < deadline) {
        Thread.sleep(50);
      }
      long[] ms = late.values().stream().mapToLong(Long::longValue).sorted().toArray();
      w.close();
      System.out.printf(
          "RESULT workload=e2e jobs=%d due_over=1-3s enqueue_took_ms=%d delivered=%d lateness_ms p50=%d p99=%d"
              + " p999=%d max=%d early=%d%n",
          jobs,
          enqueuedAt - start,
          ms.length,
          pct(ms, 0.50),
          pct(ms, 0.99),
          pct(ms, 0.999),
          ms.length == 0 ? -1 : ms[ms.length - 1],
          Arrays.stream(ms).filter(x -> x < 0).count());
    }
  }

  static long pct(long[] sorted, double p) {
    if (sorted.length == 0) {
      return -1;
    }
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
  }

  static String info(RedisServer server, String section, String field) {
    for (String line : server.command("INFO", section).split("\r?\n")) {
      if (line.startsWith(field + ":")) {
        return line.substring(field.length() + 1).trim();
      }
    }
    throw new IllegalStateException("no " + field + " in INFO " + section);
  }
}
