package dev.hourglass.bench;

import dev.hourglass.embedded.RedisServer;
import dev.hourglass.keyspace.Keyspace;
import dev.hourglass.testing.topology.RedisCluster;
import dev.hourglass.testing.topology.RedisClusterBuilder;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@code hourglass-bench/run cluster}: one queue on a three-master embedded Redis Cluster, at P = 3
 * partitions and at P = 1, on the same cluster. Each run enqueues {@code --jobs} jobs due over
 * {@code [0, --max-delay-ms)} with payloads of {@code --payload-bytes} bytes (1 by default: records
 * under 64 bytes, which Redis keeps in compact hashes while a pool is small; see
 * docs/BENCHMARKS-HISTORY.md) (ids made by the library, as by default) and delivers them through
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
 *
 * <p>{@code --callgrind} runs the masters under {@code valgrind --tool=callgrind} ({@link
 * CallgrindRedis}) and counts, per run, each master's instructions from just before the Worker
 * starts to the last ack: the figure that repeats where CPU seconds swing with how the two cores
 * are shared. Redis runs about fifty times slower, so runs default to {@link
 * ClusterOptions#DEFAULT_CALLGRIND_JOBS} jobs, the cluster's node timeout is a minute and the
 * client's command timeout too, and the warm-up runs P = 1 as well as P = 3, so that every master
 * the rounds use has compiled the scripts before its count starts. RESULT lines gain each master's
 * and the busiest master's instructions per job, the run the client's script calls per 1000 jobs by
 * script, and the COLOCATED line (or the RATIO line) the median of the rounds' instruction ratios,
 * each round's beside it; the CPU figures stay, but valgrind's own work is in them.
 */
final class ClusterBench {
  static final String QUEUE = "cluster";
  private static final Duration CALLGRIND_NODE_TIMEOUT = Duration.ofMinutes(1);

  private ClusterBench() {}

  public static void main(String[] args) throws Exception {
    ClusterOptions o;
    try {
      o = ClusterOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("hourglass-bench cluster: " + e.getMessage());
      System.err.println(ClusterOptions.USAGE);
      System.exit(2);
      return;
    }
    System.out.printf(
        "# hourglass-bench cluster %s; java %s; %d cores%n",
        o.describe(), Runtime.version(), Runtime.getRuntime().availableProcessors());
    System.out.println(
        "# Hourglass alone: Redisson's RDelayedQueue keeps a queue in one hash slot, so one"
            + " queue cannot span the cluster's nodes.");
    try (CallgrindRedis callgrind = o.callgrind() ? CallgrindRedis.create() : null;
        RedisCluster cluster = cluster(callgrind)) {
      cluster.start();
      if (o.colocate()) {
        colocate(cluster);
      }
      int warmUpJobs = Math.max(1000, o.jobs() / 5);
      // warm-up (JIT), unreported
      ClusterRun.measure(cluster, callgrind, o, 3, warmUpJobs);
      if (callgrind != null) {
        // The P = 1 partition may sit on a master the P = 3 warm-up did not use (with --colocate
        // it does): load the scripts there too, so that no round counts their compilation (EVAL
        // after NOSCRIPT).
        ClusterRun.measure(cluster, callgrind, o, 1, warmUpJobs);
      }
      Rounds rounds = new Rounds(o.rounds());
      for (int round = 1; round <= o.rounds(); round++) {
        ClusterRun p3 = ClusterRun.measure(cluster, callgrind, o, 3, o.jobs());
        System.out.println(p3.result(round));
        ClusterRun p1 = ClusterRun.measure(cluster, callgrind, o, 1, o.jobs());
        System.out.println(p1.result(round));
        System.out.flush();
        rounds.add(round - 1, p3, p1);
      }
      System.out.println(
          o.colocate() ? rounds.colocated(o.callgrind()) : rounds.ratio(o.callgrind()));
    }
    System.out.flush();
    System.exit(0); // client threads must not hold the JVM
  }

  /** Three masters; under callgrind, each run by it and given time to answer. */
  private static RedisCluster cluster(CallgrindRedis callgrind) {
    RedisClusterBuilder builder = RedisCluster.builder();
    if (callgrind != null) {
      builder
          .launcher(callgrind.launcher())
          .startupTimeout(CallgrindRedis.STARTUP_TIMEOUT)
          .nodeTimeout(CALLGRIND_NODE_TIMEOUT);
    }
    return builder.build();
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

  /** Per round, P = 3 against P = 1: the busiest master's CPU and instructions, and its share. */
  private record Rounds(double[] cpu, double[] cpuShares, double[] instr, double[] instrShares) {
    Rounds(int rounds) {
      this(new double[rounds], new double[rounds], new double[rounds], new double[rounds]);
    }

    void add(int i, ClusterRun p3, ClusterRun p1) {
      cpu[i] = p3.busiestUsPerJob() / p1.busiestUsPerJob();
      cpuShares[i] = p3.busiestShare();
      if (p1.busiestInstructionsPerJob() > 0) {
        instr[i] = p3.busiestInstructionsPerJob() / p1.busiestInstructionsPerJob();
        instrShares[i] = p3.busiestInstructionsShare();
      }
    }

    String colocated(boolean callgrind) {
      return "COLOCATED workload=cluster"
          + figure("master_cpu_per_job_p3_on_one_master_over_p1", "rounds", cpu, "%.2f")
          + " target=1.10"
          + (callgrind
              ? figure(
                  "instructions_p3_on_one_master_over_p1", "instructions_rounds", instr, "%.3f")
              : "");
    }

    String ratio(boolean callgrind) {
      return "RATIO workload=cluster"
          + figure("busiest_master_cpu_per_job_p3_over_p1", "rounds", cpu, "%.2f")
          + figure("busiest_master_share_p3", "share_rounds", cpuShares, "%.2f")
          + " target_share=0.40 note=needs_both_systems"
          + (callgrind
              ? figure(
                      "busiest_master_instructions_per_job_p3_over_p1",
                      "instructions_rounds",
                      instr,
                      "%.3f")
                  + figure(
                      "busiest_master_instructions_share_p3",
                      "instructions_share_rounds",
                      instrShares,
                      "%.3f")
              : "");
    }

    /** " name=median roundsName=each/round's/value". */
    private static String figure(String name, String roundsName, double[] values, String format) {
      return " "
          + name
          + "="
          + String.format(Locale.ROOT, format, median(values))
          + " "
          + roundsName
          + "="
          + each(values, format);
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  private static String each(double[] values, String format) {
    StringBuilder s = new StringBuilder();
    for (double v : values) {
      s.append(s.length() == 0 ? "" : "/").append(String.format(Locale.ROOT, format, v));
    }
    return s.toString();
  }
}
