package dev.hourglass.bench;

import dev.hourglass.Hourglass;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import dev.hourglass.QueueSettings;
import dev.hourglass.Worker;
import dev.hourglass.embedded.RedisCluster;
import dev.hourglass.embedded.RedisServer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code hourglass-bench/run cluster [--jobs N] [--max-delay-ms D]}: one queue spread over a
 * 3-master cluster ({@link RedisCluster}, the embedded binary) at P = 1 and at P = 3 partitions, on
 * the same cluster. Per run, a fresh queue: N jobs (16-byte payloads) enqueued with the library's
 * defaults, at most 256 enqueues in flight, each due after a uniform 0 to D ms, and delivered to
 * one {@link Worker} with default options, which acks them. Figures per run: jobs/s (first enqueue
 * to last ack), lateness p50/p99 (receipt - due), and each master's Redis CPU time ({@code INFO
 * CPU}, {@code used_cpu_sys + used_cpu_user}) over the run, divided by N: CPU per job, and on the
 * busiest master. The RATIO line is the busiest master's CPU per job at P = 3 over P = 1: what
 * spreading a queue buys where a machine's cores cannot show it in throughput. Hourglass alone:
 * Redisson's RDelayedQueue keeps a queue on one slot, so it has no P = 3 to compare.
 */
public final class ClusterBench {
  private static final int IN_FLIGHT = 256;

  private ClusterBench() {}

  public static void main(String[] args) throws Exception {
    int jobs = 20_000;
    int maxDelayMs = 1000;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--jobs" -> jobs = Integer.parseInt(args[++i]);
        case "--max-delay-ms" -> maxDelayMs = Integer.parseInt(args[++i]);
        case "--systems" -> {
          if (!args[++i].equals("hourglass")) {
            usage("the cluster workload runs Hourglass alone (--systems hourglass)");
          }
        }
        default -> usage("unknown option " + args[i]);
      }
    }
    if (jobs < 1 || maxDelayMs < 0) {
      usage("--jobs must be at least 1 and --max-delay-ms at least 0");
    }
    double[] busiest = new double[2];
    try (RedisCluster cluster = RedisCluster.create()) {
      cluster.start();
      int[] partitions = {1, 3};
      for (int r = 0; r < partitions.length; r++) {
        busiest[r] = run(cluster, partitions[r], jobs, maxDelayMs);
      }
    }
    System.out.printf(
        "RATIO workload=cluster busiest_master_cpu_per_job_p3_over_p1=%.2f"
            + " note=needs_both_systems%n",
        busiest[1] / busiest[0]);
    System.out.flush();
    System.exit(0); // client threads must not hold the JVM
  }

  private static void usage(String message) {
    System.err.println("hourglass-bench cluster: " + message);
    System.err.println(
        "usage: hourglass-bench/run cluster [--jobs N] [--max-delay-ms D] [--systems hourglass]");
    System.exit(2);
  }

  /** One run; returns the busiest master's CPU microseconds per job. */
  private static double run(RedisCluster cluster, int partitions, int jobs, int maxDelayMs)
      throws Exception {
    List<RedisServer> masters = cluster.nodes();
    String name = "cluster-p" + partitions;
    ConcurrentLinkedQueue<Long> lateness = new ConcurrentLinkedQueue<>();
    AtomicLong acked = new AtomicLong();
    try (Hourglass h = Hourglass.builder().redisUri(cluster.clusterUri()).build()) {
      h.configureQueue(name, QueueSettings.builder().partitions(partitions).build());
      Queue<String> q = h.queue(name, String.class);
      double[] cpuBefore = cpu(masters);
      long started = System.nanoTime();
      Worker worker =
          q.worker(
              job -> {
                lateness.add(System.currentTimeMillis() - Long.parseLong(job.payload()));
                acked.incrementAndGet();
              });
      Semaphore inFlight = new Semaphore(IN_FLIGHT);
      for (int i = 0; i < jobs; i++) {
        long delay = maxDelayMs == 0 ? 0 : ThreadLocalRandom.current().nextLong(maxDelayMs + 1);
        long due = System.currentTimeMillis() + delay;
        inFlight.acquire();
        q.enqueueAsync(
                JobSpec.builder()
                    .id(name + "-" + i)
                    .payload(Long.toString(due))
                    .delay(Duration.ofMillis(delay))
                    .build())
            .whenComplete((r, e) -> inFlight.release())
            .exceptionally(
                e -> {
                  e.printStackTrace();
                  return null;
                });
      }
      while (acked.get() < jobs || q.stats().counters().acked() < jobs) {
        Thread.sleep(20); // the benchmark's pace, not a test's wait
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      double[] cpuAfter = cpu(masters);
      worker.close();
      StringBuilder perMaster = new StringBuilder();
      double busiest = 0;
      for (int m = 0; m < masters.size(); m++) {
        double usPerJob = (cpuAfter[m] - cpuBefore[m]) * 1e6 / jobs;
        busiest = Math.max(busiest, usPerJob);
        perMaster.append(String.format(" master%d_cpu_us_per_job=%.1f", m, usPerJob));
        perMaster.append(String.format(" master%d_keys=%s", m, keysOf(masters.get(m), name)));
      }
      long[] late = lateness.stream().mapToLong(Long::longValue).sorted().toArray();
      System.out.printf(
          "RESULT system=hourglass workload=cluster partitions=%d jobs=%d jobs_per_s=%.0f"
              + " lateness_p50_ms=%d lateness_p99_ms=%d%s busiest_master_cpu_us_per_job=%.1f%n",
          partitions,
          jobs,
          jobs / seconds,
          Burst.percentile(late, 0.50),
          Burst.percentile(late, 0.99),
          perMaster,
          busiest);
      return busiest;
    }
  }

  /** The keys of the queue's partitions a master holds (0 once the queue drained, but meta). */
  private static String keysOf(RedisServer master, String queue) {
    String keys = master.command("KEYS", "hg:{" + queue + ".*");
    return keys == null || keys.isEmpty() ? "0" : Integer.toString(keys.split("\n").length);
  }

  /** Each master's CPU seconds so far: used_cpu_sys + used_cpu_user from INFO CPU. */
  private static double[] cpu(List<RedisServer> masters) {
    return masters.stream()
        .mapToDouble(
            m ->
                Arrays.stream(m.command("INFO", "CPU").split("\r?\n"))
                    .filter(l -> l.startsWith("used_cpu_sys:") || l.startsWith("used_cpu_user:"))
                    .mapToDouble(l -> Double.parseDouble(l.substring(l.indexOf(':') + 1).strip()))
                    .sum())
        .toArray();
  }
}
