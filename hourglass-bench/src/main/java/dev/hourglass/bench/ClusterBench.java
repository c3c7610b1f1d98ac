package dev.hourglass.bench;

import dev.hourglass.Hourglass;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import dev.hourglass.QueueSettings;
import dev.hourglass.Worker;
import dev.hourglass.embedded.RedisServer;
import dev.hourglass.keyspace.Keyspace;
import dev.hourglass.testing.topology.RedisCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code hourglass-bench/run cluster}: one queue on a three-master embedded Redis Cluster, at P = 3
 * partitions and at P = 1, on the same cluster. Each run enqueues {@code --jobs} jobs due over
 * {@code [0, --max-delay-ms)} (ids made by the library, as by default) and delivers them through
 * one Worker with the library's defaults; it reports jobs/s and each master's Redis CPU time (INFO
 * cpu, user + system) per job, and the RATIO line the busiest master's CPU per job at P = 3 over
 * that at P = 1 and the busiest master's share of the masters' CPU at P = 3, each the median of the
 * rounds (a round runs P = 3 then P = 1), every round's beside it. This machine's cores are shared
 * by the three masters and the client, so throughput cannot show the spread; CPU per job on the
 * busiest master does. Hourglass alone: Redisson's RDelayedQueue keeps a queue in one hash slot, so
 * it cannot span nodes.
 *
 * <p>{@code --colocate} first moves the slots of the P = 3 partitions onto one master: the P = 3
 * runs then cost that one master what partitioning itself costs, with no other Redis server busy on
 * the machine's cores, and the COLOCATED line compares it with P = 1 (1.0 means partitioning adds
 * no Redis work per job).
 */
final class ClusterBench {
  private static final String QUEUE = "cluster";
  private static final int BATCH = 500;

  private ClusterBench() {}

  public static void main(String[] args) throws Exception {
    int jobs = 50_000;
    int maxDelayMs = 2000;
    int rounds = 5;
    boolean colocate = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--jobs" -> jobs = positive(args, ++i);
        case "--max-delay-ms" -> maxDelayMs = positive(args, ++i);
        case "--rounds" -> rounds = positive(args, ++i);
        case "--colocate" -> colocate = true;
        case "--systems" -> {
          if (!args[++i].equals("hourglass")) {
            usage("the cluster workload runs on hourglass only");
          }
        }
        default -> usage("unknown option " + args[i]);
      }
    }
    System.out.printf(
        "# hourglass-bench cluster --jobs %d --max-delay-ms %d --rounds %d%s; java %s; %d cores%n",
        jobs,
        maxDelayMs,
        rounds,
        colocate ? " --colocate" : "",
        Runtime.version(),
        Runtime.getRuntime().availableProcessors());
    System.out.println(
        "# Hourglass alone: Redisson's RDelayedQueue keeps a queue in one hash slot, so one"
            + " queue cannot span the cluster's nodes.");
    try (RedisCluster cluster = RedisCluster.create()) {
      cluster.start();
      if (colocate) {
        colocate(cluster);
      }
      run(cluster, 3, Math.max(1000, jobs / 5), maxDelayMs); // warm-up (JIT), unreported
      double[] ratios = new double[rounds];
      double[] shares = new double[rounds];
      for (int round = 1; round <= rounds; round++) {
        Run p3 = run(cluster, 3, jobs, maxDelayMs);
        System.out.println(p3.result(round));
        Run p1 = run(cluster, 1, jobs, maxDelayMs);
        System.out.println(p1.result(round));
        System.out.flush();
        ratios[round - 1] = p3.busiestUsPerJob() / p1.busiestUsPerJob();
        shares[round - 1] = p3.busiestShare();
      }
      if (colocate) {
        System.out.printf(
            Locale.ROOT,
            "COLOCATED workload=cluster master_cpu_per_job_p3_on_one_master_over_p1=%.2f"
                + " rounds=%s target=1.10%n",
            median(ratios),
            each(ratios));
      } else {
        System.out.printf(
            Locale.ROOT,
            "RATIO workload=cluster busiest_master_cpu_per_job_p3_over_p1=%.2f rounds=%s"
                + " busiest_master_share_p3=%.2f share_rounds=%s target_share=0.40"
                + " note=needs_both_systems%n",
            median(ratios),
            each(ratios),
            median(shares),
            each(shares));
      }
    }
    System.out.flush();
    System.exit(0); // client threads must not hold the JVM
  }

  /** Moves the slots of partitions 1 and 2 of the P = 3 queue to the master of partition 0. */
  private static void colocate(RedisCluster cluster) {
    RedisServer target = cluster.masterOf(Keyspace.slot(Keyspace.partitionTag(QUEUE, 0, 3)));
    for (int p = 1; p < 3; p++) {
      // finish() moves the slot's keys (none: the cluster was just started), then hands it over
      cluster.migrateSlot(Keyspace.slot(Keyspace.partitionTag(QUEUE, p, 3)), target).finish();
    }
    System.out.println("# --colocate: the three partitions of the P = 3 queue are on " + target);
  }

  /** One measured run: jobs/s and per master the Redis CPU microseconds per job. */
  record Run(int partitions, int jobs, double jobsPerS, double[] usPerJob) {
    double busiestUsPerJob() {
      double max = 0;
      for (double us : usPerJob) {
        max = Math.max(max, us);
      }
      return max;
    }

    /** The busiest master's share of the masters' Redis CPU in this run. */
    double busiestShare() {
      double sum = 0;
      for (double us : usPerJob) {
        sum += us;
      }
      return sum > 0 ? busiestUsPerJob() / sum : 0;
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
      return s.toString();
    }
  }

  private static Run run(RedisCluster cluster, int partitions, int jobs, int maxDelayMs)
      throws Exception {
    cluster.flushAll();
    List<RedisServer> masters = cluster.nodes();
    try (Hourglass h = Hourglass.builder().redisUri(cluster.clusterUri()).build()) {
      Queue<byte[]> q =
          h.configureQueue(QUEUE, QueueSettings.builder().partitions(partitions).build());
      AtomicLong handled = new AtomicLong();
      masters.forEach(m -> m.command("CONFIG", "RESETSTAT"));
      double[] cpuBefore = cpu(masters);
      long start = System.nanoTime();
      try (Worker w = q.worker(job -> handled.incrementAndGet())) {
        List<CompletableFuture<?>> batches = new ArrayList<>();
        for (int from = 0; from < jobs; from += BATCH) {
          List<JobSpec> batch = new ArrayList<>();
          for (int i = from; i < Math.min(jobs, from + BATCH); i++) {
            long delay = (long) i * maxDelayMs / jobs;
            batch.add(JobSpec.builder().payload("x").delay(Duration.ofMillis(delay)).build());
          }
          batches.add(q.enqueueAllAsync(batch));
          if (batches.size() >= 4) {
            batches.remove(0).join();
          }
        }
        batches.forEach(CompletableFuture::join);
        while (handled.get() < jobs) {
          LockSupport.parkNanos(2_000_000); // the worker's progress
        }
        long elapsed = System.nanoTime() - start;
        while (q.stats().counters().acked() < jobs) {
          LockSupport.parkNanos(20_000_000); // acks are sent asynchronously
        }
        double[] us = cpu(masters);
        for (int m = 0; m < us.length; m++) {
          us[m] = (us[m] - cpuBefore[m]) * 1e6 / jobs;
        }
        printCommands(masters, partitions, jobs);
        return new Run(partitions, jobs, jobs / (elapsed / 1e9), us);
      }
    }
  }

  /**
   * Per master, the six costliest commands of the run (a script's time includes its commands'):
   * calls and Redis microseconds per job.
   */
  private static void printCommands(List<RedisServer> masters, int partitions, int jobs) {
    for (int m = 0; m < masters.size(); m++) {
      List<String[]> stats = new ArrayList<>();
      for (String line : masters.get(m).command("INFO", "commandstats").split("\r?\n")) {
        if (line.startsWith("cmdstat_") && !line.startsWith("cmdstat_info:")) {
          String name = line.substring("cmdstat_".length(), line.indexOf(':'));
          stats.add(new String[] {name, field(line, "calls="), field(line, "usec=")});
        }
      }
      stats.sort((a, b) -> Long.compare(Long.parseLong(b[2]), Long.parseLong(a[2])));
      StringBuilder s = new StringBuilder("# P=" + partitions + " master" + m + " per job:");
      for (String[] st : stats.subList(0, Math.min(6, stats.size()))) {
        s.append(
            String.format(
                Locale.ROOT,
                " %s=%.3f calls/%.2f us",
                st[0],
                Long.parseLong(st[1]) / (double) jobs,
                Long.parseLong(st[2]) / (double) jobs));
      }
      System.out.println(s);
    }
  }

  private static String field(String line, String name) {
    int from = line.indexOf(name) + name.length();
    int to = line.indexOf(',', from);
    return line.substring(from, to < 0 ? line.length() : to);
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  private static String each(double[] values) {
    StringBuilder s = new StringBuilder();
    for (double v : values) {
      s.append(s.length() == 0 ? "" : "/").append(String.format(Locale.ROOT, "%.2f", v));
    }
    return s.toString();
  }

  private static double[] cpu(List<RedisServer> masters) {
    double[] seconds = new double[masters.size()];
    for (int m = 0; m < seconds.length; m++) {
      seconds[m] = RedisTarget.cpuSeconds(masters.get(m).command("INFO", "cpu"));
    }
    return seconds;
  }

  private static int positive(String[] args, int i) {
    if (i >= args.length) {
      usage(args[i - 1] + " needs a value");
    }
    try {
      int v = Integer.parseInt(args[i]);
      if (v >= 1) {
        return v;
      }
    } catch (NumberFormatException e) {
      // falls through to the usage message
    }
    usage(args[i - 1] + " must be a whole number of at least 1, was " + args[i]);
    return 0;
  }

  private static void usage(String message) {
    System.err.println("hourglass-bench cluster: " + message);
    System.err.println(
        "usage: hourglass-bench/run cluster [--jobs N] [--max-delay-ms D] [--rounds R]"
            + " [--colocate] [--systems hourglass]");
    System.exit(2);
  }
}
