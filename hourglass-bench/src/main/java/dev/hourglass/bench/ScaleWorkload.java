package dev.hourglass.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * A big queue: fill to N pending jobs (due in 1 to 2 hours) and report the fill rate per tenth of
 * the way, the memory, the largest keys; then the e2e figures of a fresh burst while the N wait.
 */
final class ScaleWorkload implements Workload {
  private static final int DEFAULT_JOBS = 10_000_000;
  private static final long PENDING_MIN_MS = 3_600_000;
  private static final long PENDING_MAX_MS = 7_200_000;
  private static final int TENTHS = 10;
  private static final int MAX_KEYS_SIZED = 100_000;
  private static final int LARGEST_SHOWN = 3;

  @Override
  public String name() {
    return "scale";
  }

  /**
   * None unless {@code --warmup-jobs} asks: a scale run of that many pending jobs and its burst,
   * which warms the delivery path the fill alone does not run.
   */
  @Override
  public int warmupJobs(Options o) {
    return o.warmupJobs(o.jobs(DEFAULT_JOBS), 0);
  }

  @Override
  public Fields run(SystemUnderTest sut, RedisTarget redis, Options o) throws Exception {
    int asked = o.jobs(DEFAULT_JOBS);
    int cap = o.redissonCap();
    boolean capped = sut.name().equals("redisson") && cap > 0 && cap < asked;
    int jobs = capped ? cap : asked;
    Payloads payloads = new Payloads(o.payloadBytes(), o.seed());
    Fields f = new Fields().put("jobs", jobs);
    if (capped) {
      f.put("capped_from", asked).put("note", "capped_by_redisson-cap");
    }
    // At least one batch per tenth, so that every tenth has a rate of its own.
    int batchSize = Math.max(1, Math.min(o.batchSize(), jobs / TENTHS));
    f.put("payload_bytes", o.payloadBytes())
        .put("pending_delay_ms", PENDING_MIN_MS + "-" + PENDING_MAX_MS)
        .put("batch_size", batchSize);

    RedisTarget.Memory before = redis.memory();
    long now = System.currentTimeMillis();
    long[] doneAt = new long[TENTHS + 1]; // jobs stored when tenth k was crossed
    long[] timeAt = new long[TENTHS + 1];
    timeAt[0] = System.nanoTime();
    int[] tenth = {1};
    Producer.batches(
        sut,
        jobs,
        batchSize,
        i -> payloads.job(now + payloads.delay(PENDING_MIN_MS, PENDING_MAX_MS), i),
        done -> {
          while (tenth[0] <= TENTHS && done >= (long) jobs * tenth[0] / TENTHS) {
            doneAt[tenth[0]] = done;
            timeAt[tenth[0]] = System.nanoTime();
            tenth[0]++;
          }
        });
    double[] rates = new double[TENTHS];
    StringJoiner tenths = new StringJoiner("/");
    for (int k = 0; k < TENTHS; k++) {
      long nanos = Math.max(1, timeAt[k + 1] - timeAt[k]);
      rates[k] = (doneAt[k + 1] - doneAt[k]) * 1e9 / nanos;
      tenths.add(String.format(Locale.ROOT, "%.0f", rates[k]));
    }
    RedisTarget.Memory after = redis.memory();
    f.rate("fill_jobs_per_s", jobs * 1e9 / Math.max(1, timeAt[TENTHS] - timeAt[0]))
        .rate("fill_first10pct_jobs_per_s", rates[0])
        .rate("fill_last10pct_jobs_per_s", rates[TENTHS - 1])
        .put("fill_last_over_first", rates[0] == 0 ? 0 : rates[TENTHS - 1] / rates[0])
        .put("fill_tenths_jobs_per_s", tenths.toString())
        .put("used_memory", after.used())
        .rate("used_memory_mb", after.used() / 1048576.0)
        .rate("bytes_per_job", (after.used() - before.used()) / (double) jobs)
        .rate("dataset_bytes_per_job", (after.dataset() - before.dataset()) / (double) jobs);
    largestKeys(redis, f);

    Burst burst =
        new Burst(
            sut,
            o.burstJobs(),
            o.delays(1000, 3000),
            o.consumers(4),
            o.batchSize(),
            o.timeoutSeconds());
    return f.putAll("burst_", burst.run(payloads, jobs)).putAll("burst_", sut.consumerFields());
  }

  /** SCANs the keys (there are few: neither system keeps a key per job) and sizes each. */
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

  @Override
  public Fields ratio(Fields h, Fields r) {
    Fields ratio =
        new Fields()
            .put("jobs_hourglass", (long) h.num("jobs"))
            .put("jobs_redisson", (long) r.num("jobs"))
            .ratio("fill_x_faster", h.num("fill_jobs_per_s"), r.num("fill_jobs_per_s"))
            .ratio("bytes_per_job_x_lower", r.num("bytes_per_job"), h.num("bytes_per_job"))
            .ratio("largest_key_x_lower", r.num("largest_key_bytes"), h.num("largest_key_bytes"));
    return E2eWorkload.latenessRatios(ratio, "burst_", h, r);
  }
}
