package dev.hourglass.bench;

import dev.hourglass.Hourglass;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import dev.hourglass.QueueSettings;
import dev.hourglass.Worker;
import dev.hourglass.embedded.RedisServer;
import dev.hourglass.testing.topology.RedisCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One measured run of the cluster workload (see {@link ClusterBench}): jobs/s and per master the
 * Redis CPU microseconds per job and, with the masters under callgrind, the instructions per job.
 *
 * @param partitions the queue's partitions
 * @param jobs jobs enqueued and acked
 * @param jobsPerS jobs/s from the first enqueue to the last delivery
 * @param usPerJob per master, Redis CPU (INFO cpu, user + system) per job
 * @param instructionsPerJob per master, instructions per job; empty without callgrind
 */
record ClusterRun(
    int partitions, int jobs, double jobsPerS, double[] usPerJob, double[] instructionsPerJob) {
  private static final int BATCH = 500;

  double busiestUsPerJob() {
    return max(usPerJob);
  }

  /** The busiest master's share of the masters' Redis CPU in this run. */
  double busiestShare() {
    return share(usPerJob);
  }

  double busiestInstructionsPerJob() {
    return max(instructionsPerJob);
  }

  /** The busiest master's share of the masters' instructions in this run. */
  double busiestInstructionsShare() {
    return share(instructionsPerJob);
  }

  String result(int round) {
    StringBuilder s =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "RESULT system=hourglass workload=cluster partitions=%d round=%d jobs=%d"
                    + " jobs_per_s=%.0f",
                partitions,
                round,
                jobs,
                jobsPerS));
    for (int m = 0; m < usPerJob.length; m++) {
      s.append(String.format(Locale.ROOT, " master%d_redis_us_per_job=%.2f", m, usPerJob[m]));
    }
    s.append(String.format(Locale.ROOT, " busiest_redis_us_per_job=%.2f", busiestUsPerJob()));
    for (int m = 0; m < instructionsPerJob.length; m++) {
      s.append(
          String.format(
              Locale.ROOT, " master%d_redis_instructions_per_job=%.0f", m, instructionsPerJob[m]));
    }
    if (instructionsPerJob.length > 0) {
      s.append(
          String.format(
              Locale.ROOT,
              " busiest_redis_instructions_per_job=%.0f",
              busiestInstructionsPerJob()));
    }
    return s.toString();
  }

  /**
   * Flushes the cluster, configures queue {@link ClusterBench#QUEUE} with {@code partitions}
   * partitions, enqueues {@code jobs} jobs of {@code o}'s payload due over [0, {@code
   * o.maxDelayMs()}) while one Worker acks them, and measures the masters over that; prints each
   * master's costliest commands.
   *
   * @param callgrind the counter the masters run under, or null when they do not
   */
  static ClusterRun measure(
      RedisCluster cluster, CallgrindRedis callgrind, ClusterOptions o, int partitions, int jobs)
      throws Exception {
    cluster.flushAll();
    List<RedisServer> masters = cluster.nodes();
    ScriptCalls scripts = new ScriptCalls();
    var builder = Hourglass.builder().redisUri(cluster.clusterUri()).scriptListener(scripts);
    if (callgrind != null) {
      builder.commandTimeout(Duration.ofMinutes(1)); // Redis runs ~50x slower under callgrind
    }
    try (Hourglass h = builder.build()) {
      Queue<byte[]> q =
          h.configureQueue(
              ClusterBench.QUEUE, QueueSettings.builder().partitions(partitions).build());
      AtomicLong handled = new AtomicLong();
      masters.forEach(m -> m.command("CONFIG", "RESETSTAT"));
      double[] cpuBefore = cpu(masters);
      if (callgrind != null) {
        for (RedisServer m : masters) {
          callgrind.zero(m);
        }
      }
      Map<String, Long> scriptsBefore = scripts.snapshot();
      long start = System.nanoTime();
      try (Worker w = q.worker(job -> handled.incrementAndGet())) {
        enqueue(q, jobs, o.maxDelayMs(), o.payload());
        while (handled.get() < jobs) {
          LockSupport.parkNanos(2_000_000); // the worker's progress
        }
        long elapsed = System.nanoTime() - start;
        while (q.stats().counters().acked() < jobs) {
          LockSupport.parkNanos(20_000_000); // acks are sent asynchronously
        }
        Map<String, Long> scriptsRun = CostWorkload.delta(scriptsBefore, scripts.snapshot());
        double[] us = cpu(masters);
        for (int m = 0; m < us.length; m++) {
          us[m] = (us[m] - cpuBefore[m]) * 1e6 / jobs;
        }
        double[] instructions = new double[callgrind == null ? 0 : masters.size()];
        for (int m = 0; m < instructions.length; m++) {
          instructions[m] = callgrind.instructions(masters.get(m)) / (double) jobs;
        }
        ClusterCommands.print(masters, partitions, jobs);
        if (callgrind != null) {
          ClusterCommands.printScripts(scriptsRun, partitions, jobs);
        }
        return new ClusterRun(partitions, jobs, jobs / (elapsed / 1e9), us, instructions);
      }
    }
  }

  /** Batches of {@link #BATCH}, four in flight, due evenly over [0, maxDelayMs). */
  private static void enqueue(Queue<byte[]> q, int jobs, int maxDelayMs, byte[] payload) {
    List<CompletableFuture<?>> batches = new ArrayList<>();
    for (int from = 0; from < jobs; from += BATCH) {
      List<JobSpec> batch = new ArrayList<>();
      for (int i = from; i < Math.min(jobs, from + BATCH); i++) {
        long delay = (long) i * maxDelayMs / jobs;
        batch.add(JobSpec.builder().payload(payload).delay(Duration.ofMillis(delay)).build());
      }
      batches.add(q.enqueueAllAsync(batch));
      if (batches.size() >= 4) {
        batches.remove(0).join();
      }
    }
    batches.forEach(CompletableFuture::join);
  }

  private static double[] cpu(List<RedisServer> masters) {
    double[] seconds = new double[masters.size()];
    for (int m = 0; m < seconds.length; m++) {
      seconds[m] = RedisTarget.cpuSeconds(masters.get(m).command("INFO", "cpu"));
    }
    return seconds;
  }

  private static double max(double[] values) {
    double max = 0;
    for (double v : values) {
      max = Math.max(max, v);
    }
    return max;
  }

  private static double share(double[] values) {
    double sum = 0;
    for (double v : values) {
      sum += v;
    }
    return sum > 0 ? max(values) / sum : 0;
  }
}
