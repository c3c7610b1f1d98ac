package dev.hourglass.bench;

import dev.hourglass.Delivery;
import dev.hourglass.Hourglass;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import dev.hourglass.QueueLimits;
import dev.hourglass.QueueSettings;
import dev.hourglass.Worker;
import dev.hourglass.WorkerOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code hourglass-bench/run limits [--rate N] [--period-ms P] [--seconds S] [--partitions K]
 * [--workers W] [--redis URI]}: a rate limit's achieved rate against the limit. A queue limited to
 * N deliveries per P ms (1000 per 1000 ms by default) holds more ready jobs than S seconds (60) can
 * deliver; W workers (2, each its own client, 16 threads) take them for S seconds, and each
 * delivery's start (its lease deadline less its visibility: the server clock of its claim) is kept.
 * Prints the deliveries per second achieved over the S seconds from the first start against the
 * limit's, the most starts in any window of P ms (never above N), and the Redis script calls per
 * delivery (claims held back by the limit wait for the window to move: no polling). Hourglass
 * alone: the RATIO line says note=needs_both_systems.
 */
final class LimitsBench {
  private static final String QUEUE = "bench-limits";
  private static final Duration VISIBILITY = Duration.ofMinutes(10);

  private LimitsBench() {}

  public static void main(String[] args) throws Exception {
    int rate = 1000;
    long periodMs = 1000;
    int seconds = 60;
    int partitions = 1;
    int workers = 2;
    String redisUrl = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--rate" -> rate = Integer.parseInt(args[++i]);
        case "--period-ms" -> periodMs = Long.parseLong(args[++i]);
        case "--seconds" -> seconds = Integer.parseInt(args[++i]);
        case "--partitions" -> partitions = Integer.parseInt(args[++i]);
        case "--workers" -> workers = Integer.parseInt(args[++i]);
        case "--redis" -> redisUrl = args[++i];
        case "--systems" -> {
          if (!args[++i].equals("hourglass")) {
            usage("the limits workload runs on hourglass only");
          }
        }
        default -> usage("unknown option " + args[i]);
      }
    }
    if (seconds < 1 || workers < 1 || partitions < 1) {
      usage("--seconds, --workers and --partitions must be at least 1");
    }
    run(
        new QueueLimits.Rate(rate, Duration.ofMillis(periodMs)),
        seconds,
        partitions,
        workers,
        redisUrl);
    System.out.flush();
    System.exit(0); // client threads must not hold the JVM
  }

  private static void usage(String message) {
    System.err.println("hourglass-bench limits: " + message);
    System.err.println(
        "usage: hourglass-bench/run limits [--rate N] [--period-ms P] [--seconds S]"
            + " [--partitions K] [--workers W] [--redis URI]");
    System.exit(2);
  }

  private static void run(
      QueueLimits.Rate limit, int seconds, int partitions, int workers, String redisUrl)
      throws Exception {
    long periodMs = limit.period().toMillis();
    long jobs = (long) Math.ceil(limit.max() * (seconds * 1000.0 / periodMs)) + limit.max() + 100;
    List<Hourglass> clients = new ArrayList<>();
    try (RedisTarget redis = RedisTarget.open(redisUrl)) {
      System.out.println(
          "# hourglass-bench limits rate="
              + limit.max()
              + "/"
              + periodMs
              + "ms seconds="
              + seconds
              + " partitions="
              + partitions
              + " workers="
              + workers
              + " jobs="
              + jobs);
      System.out.println("# " + redis.describe() + "; java " + Runtime.version());
      for (int w = 0; w < workers; w++) {
        clients.add(Hourglass.builder().redisUri(redis.uri()).build());
      }
      Queue<byte[]> q =
          clients
              .get(0)
              .configureQueue(
                  QUEUE,
                  QueueSettings.builder()
                      .partitions(partitions)
                      .limits(QueueLimits.of(limit, null))
                      .build());
      List<JobSpec> batch = new ArrayList<>();
      for (long i = 0; i < jobs; i++) {
        batch.add(JobSpec.builder().id("j" + i).payload("{}").build());
        if (batch.size() == 1000 || i == jobs - 1) {
          q.enqueueAll(batch);
          batch.clear();
        }
      }
      ConcurrentLinkedQueue<Long> starts = new ConcurrentLinkedQueue<>();
      long scriptsBefore = redis.commandCalls().getOrDefault("evalsha", 0L);
      long startNanos = System.nanoTime();
      List<Worker> running = new ArrayList<>();
      WorkerOptions options =
          WorkerOptions.builder().concurrency(16).visibility(VISIBILITY).build();
      for (Hourglass h : clients) {
        running.add(h.queue(QUEUE).worker(job -> starts.add(startMs(job.delivery())), options));
      }
      long endNanos = startNanos + seconds * 1_000_000_000L;
      while (System.nanoTime() < endNanos) {
        LockSupport.parkNanos(Math.min(200_000_000L, endNanos - System.nanoTime()));
      }
      running.forEach(Worker::close);
      long scripts = redis.commandCalls().getOrDefault("evalsha", 0L) - scriptsBefore;
      long[] sorted = starts.stream().mapToLong(Long::longValue).sorted().toArray();
      long first = sorted.length == 0 ? 0 : sorted[0];
      long inSpan = Arrays.stream(sorted).filter(t -> t < first + seconds * 1000L).count();
      double achieved = inSpan / (double) seconds;
      double allowed = limit.max() * 1000.0 / periodMs;
      System.out.println(
          String.format(
              Locale.ROOT,
              "RESULT system=hourglass workload=limits rate_max=%d period_ms=%d seconds=%d"
                  + " partitions=%d workers=%d delivered=%d achieved_per_s=%.1f limit_per_s=%.1f"
                  + " achieved_of_limit=%.3f most_in_any_window=%d scripts_per_delivery=%.2f",
              limit.max(),
              periodMs,
              seconds,
              partitions,
              workers,
              sorted.length,
              achieved,
              allowed,
              achieved / allowed,
              mostInAnyWindow(sorted, periodMs),
              sorted.length == 0 ? 0 : scripts / (double) sorted.length));
      System.out.println("RATIO workload=limits note=needs_both_systems");
    } finally {
      clients.forEach(Hourglass::close);
    }
  }

  private static long startMs(Delivery<?> d) {
    return d.leaseUntil().toEpochMilli() - d.visibility().toMillis();
  }

  /** The most starts in any window of {@code periodMs}, each window beginning at a start. */
  static int mostInAnyWindow(long[] sorted, long periodMs) {
    int most = 0;
    for (int i = 0, j = 0; i < sorted.length; i++) {
      while (j < sorted.length && sorted[j] < sorted[i] + periodMs) {
        j++;
      }
      most = Math.max(most, j - i);
    }
    return most;
  }
}
