package dev.hourglass.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntToDoubleFunction;

/**
 * The scale workload's fill, the same for every system and for the raw-Redis baseline: N jobs due
 * in 1 to 2 hours, sent in batches by {@link Producer#batches}, with the rate and Redis's CPU time
 * per job in each tenth of the way, this JVM's CPU time (which side was the bottleneck), the
 * commands Redis ran, the memory taken and the largest keys.
 */
final class ScaleFill {
  static final long PENDING_MIN_MS = 3_600_000;
  static final long PENDING_MAX_MS = 7_200_000;
  static final int TENTHS = 10;
  private static final int MAX_KEYS_SIZED = 100_000;
  private static final int LARGEST_SHOWN = 3;

  /** This JVM: the harness with the client under test, its I/O threads, GC and JIT included. */
  private static final OperatingSystemMXBean CLIENT =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private ScaleFill() {}

  /**
   * Batches of {@code --batch-size}, but at least one per tenth, so that every tenth has a rate of
   * its own.
   */
  static int batchSize(Options o, int jobs) {
    return Math.max(1, Math.min(o.batchSize(), jobs / TENTHS));
  }

  /**
   * Fills Redis with {@code jobs} jobs of {@code payloads}' through {@code sender}; appends the
   * figures to {@code f}.
   */
  static Fields run(
      Producer.BatchSender sender,
      RedisTarget redis,
      Payloads payloads,
      Options o,
      int jobs,
      Fields f)
      throws Exception {
    int batchSize = batchSize(o, jobs);
    f.put("payload_bytes", o.payloadLabel())
        .put("pending_delay_ms", PENDING_MIN_MS + "-" + PENDING_MAX_MS)
        .put("batch_size", batchSize);

    RedisTarget.Memory before = redis.memory();
    Map<String, Long> callsBefore = redis.commandCalls();
    long now = System.currentTimeMillis();
    Tenths tenths = new Tenths(redis, jobs);
    long clientCpuBefore = CLIENT.getProcessCpuTime();
    tenths.start();
    Producer.batches(
        sender,
        jobs,
        batchSize,
        i -> payloads.job(now + payloads.delay(PENDING_MIN_MS, PENDING_MAX_MS), i),
        (first, size, done) -> tenths.stored(done));
    long clientCpu = CLIENT.getProcessCpuTime() - clientCpuBefore;
    Map<String, Long> callsAfter = redis.commandCalls();
    long fillNanos = tenths.nanos(0, TENTHS);
    double fillCpu = tenths.redisCpuSeconds(0, TENTHS);
    double firstRate = tenths.rate(0);
    double lastRate = tenths.rate(TENTHS - 1);
    double firstUs = tenths.redisUsPerJob(0);
    double lastUs = tenths.redisUsPerJob(TENTHS - 1);
    RedisTarget.Memory after = redis.memory();
    f.rate("fill_jobs_per_s", jobs * 1e9 / fillNanos)
        .rate("fill_first10pct_jobs_per_s", firstRate)
        .rate("fill_last10pct_jobs_per_s", lastRate)
        .put("fill_last_over_first", firstRate == 0 ? 0 : lastRate / firstRate)
        .put("fill_tenths_jobs_per_s", tenths.each("%.0f", tenths::rate))
        .rate("fill_redis_cpu_pct", fillCpu * 1e9 * 100 / fillNanos)
        .put("fill_redis_us_per_job", fillCpu * 1e6 / jobs)
        .put("fill_tenths_redis_us_per_job", tenths.each("%.2f", tenths::redisUsPerJob))
        .put("fill_redis_ratio", lastUs <= 0 ? 0 : firstUs / lastUs)
        .put("fill_redis_us_growth", lastUs - firstUs)
        .rate("fill_client_cpu_pct", clientCpu * 100.0 / fillNanos)
        .put("fill_client_us_per_job", clientCpu / 1e3 / jobs)
        .put("fill_calls_per_1000_jobs", callsPer1000(callsBefore, callsAfter, jobs))
        .rate("rss_before_fill_mb", before.rss() / 1048576.0)
        .put("used_memory", after.used())
        .rate("used_memory_mb", after.used() / 1048576.0)
        .rate("bytes_per_job", (after.used() - before.used()) / (double) jobs)
        .rate("dataset_bytes_per_job", (after.dataset() - before.dataset()) / (double) jobs);
    largestKeys(redis, f);
    return f;
  }

  /**
   * Where the fill stood as it crossed each tenth of the way: jobs stored, time, and Redis's CPU
   * seconds. Redis's are asked for without waiting, from the thread that completed the batch, and
   * read after the fill: each counts the batches Redis had already read then as well, a few
   * thousand jobs at most.
   */
  private static final class Tenths {
    private final RedisTarget redis;
    private final int jobs;
    private final long[] doneAt = new long[TENTHS + 1];
    private final long[] timeAt = new long[TENTHS + 1];
    private final List<CompletableFuture<Double>> cpuAt = new ArrayList<>(TENTHS + 1);
    private int next = 1; // the next tenth to cross; guarded by Producer's lock

    Tenths(RedisTarget redis, int jobs) {
      this.redis = redis;
      this.jobs = jobs;
    }

    void start() {
      cpuAt.add(CompletableFuture.completedFuture(redis.cpuSeconds()));
      timeAt[0] = System.nanoTime();
    }

    /** {@code done} jobs are stored. */
    void stored(long done) {
      while (next <= TENTHS && done >= (long) jobs * next / TENTHS) {
        doneAt[next] = done;
        timeAt[next] = System.nanoTime();
        cpuAt.add(redis.cpuSecondsAsync());
        next++;
      }
    }

    long nanos(int from, int to) {
      return Math.max(1, timeAt[to] - timeAt[from]);
    }

    double redisCpuSeconds(int from, int to) {
      return cpuAt.get(to).join() - cpuAt.get(from).join();
    }

    /** Jobs per second stored in tenth {@code k} (0-based). */
    double rate(int k) {
      return (doneAt[k + 1] - doneAt[k]) * 1e9 / nanos(k, k + 1);
    }

    /** Redis's CPU time in microseconds per job stored in tenth {@code k} (0-based). */
    double redisUsPerJob(int k) {
      return redisCpuSeconds(k, k + 1) * 1e6 / Math.max(1, doneAt[k + 1] - doneAt[k]);
    }

    /** The figure of every tenth, formatted, joined by '/'. */
    String each(String format, IntToDoubleFunction figure) {
      StringJoiner all = new StringJoiner("/");
      for (int k = 0; k < TENTHS; k++) {
        all.add(String.format(Locale.ROOT, format, figure.applyAsDouble(k)));
      }
      return all.toString();
    }
  }

  /**
   * Calls per command Redis ran during the fill (commands inside scripts counted too), per 1000
   * jobs, by name; the harness's own INFO calls left out.
   */
  private static String callsPer1000(Map<String, Long> before, Map<String, Long> after, int jobs) {
    Map<String, Long> delta = new HashMap<>();
    after.forEach((cmd, calls) -> delta.put(cmd, calls - before.getOrDefault(cmd, 0L)));
    delta.remove("info");
    StringJoiner byCommand = new StringJoiner(",");
    new TreeMap<>(delta)
        .forEach(
            (cmd, calls) -> {
              if (calls > 0) {
                byCommand.add(String.format(Locale.ROOT, "%s:%.1f", cmd, calls * 1000.0 / jobs));
              }
            });
    return byCommand.length() == 0 ? "none" : byCommand.toString();
  }

  /** SCANs the keys (there are few: no system keeps a key per job) and sizes each. */
  private static void largestKeys(RedisTarget redis, Fields f) {
    long start = System.nanoTime();
    List<String> keys = redis.keys(MAX_KEYS_SIZED);
    List<Map.Entry<String, Long>> sized = new ArrayList<>(keys.size());
    for (String key : keys) {
      sized.add(Map.entry(key, redis.memoryUsage(key)));
    }
    sized.sort(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()));
    StringJoiner largest = new StringJoiner(",");
    sized.stream()
        .limit(LARGEST_SHOWN)
        .forEach(e -> largest.add(e.getKey().replace(' ', '_') + "/" + e.getValue()));
    f.put("keys", redis.dbSize())
        .put("keys_sized", sized.size())
        .put("largest_key", sized.isEmpty() ? "none" : sized.get(0).getKey().replace(' ', '_'))
        .put("largest_key_bytes", sized.isEmpty() ? 0 : sized.get(0).getValue())
        .put("largest_keys", sized.isEmpty() ? "none" : largest.toString())
        .put("sizing_ms", (System.nanoTime() - start) / 1_000_000);
  }
}
