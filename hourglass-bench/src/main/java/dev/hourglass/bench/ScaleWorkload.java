package dev.hourglass.bench;

/**
 * A big queue: fill to N pending jobs (due in 1 to 2 hours) and report the fill rate per tenth of
 * the way, the memory, the largest keys ({@link ScaleFill}); then the e2e figures of a fresh burst
 * while the N wait. Before the systems, the same fill on raw Redis ({@link RedisBaseline}) shows
 * how much of the slowdown at size is Redis's own.
 */
final class ScaleWorkload implements Workload {
  private static final int DEFAULT_JOBS = 10_000_000;

  /**
   * How far a system's fill ratio (last tenth's rate / first tenth's) may fall below the
   * baseline's: the target for Hourglass.
   */
  static final double FILL_RATIO_TOLERANCE = 0.10;

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
    Fields f = new Fields().put("jobs", jobs);
    if (capped) {
      f.put("capped_from", asked).put("note", "capped_by_redisson-cap");
    }
    Payloads payloads = o.payloads();
    ScaleFill.run(sut::enqueueBatchAsync, redis, payloads, o, jobs, f);

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

  @Override
  public boolean hasBaseline() {
    return true;
  }

  /** The fill alone, to {@code --jobs}, by {@link RedisBaseline}; no burst. */
  @Override
  public Fields runBaseline(RedisTarget redis, String queue, Options o) throws Exception {
    int jobs = o.jobs(DEFAULT_JOBS);
    Fields f =
        new Fields()
            .put("jobs", jobs)
            .put("key_prefix", RedisBaseline.PREFIX)
            .put("jobs_per_pipelined_call", RedisBaseline.JOBS_PER_SCRIPT_CALL);
    try (RedisBaseline baseline = new RedisBaseline(redis.uri(), queue)) {
      Payloads payloads = o.payloads(); // the systems' payloads
      return ScaleFill.run(baseline::enqueueBatchAsync, redis, payloads, o, jobs, f);
    }
  }

  /**
   * The baseline's fill ratio beside the system's, and whether the system's falls no more than
   * {@link #FILL_RATIO_TOLERANCE} below it; nothing for a fill of another size (Redisson's,
   * capped).
   *
   * <p>Both ratios are read in Redis's time, {@code fill_redis_ratio} (Redis's CPU time per job in
   * the first tenth over the last), like for like: the baseline's client does more per job than
   * Redis does for it, so the baseline's wall-clock rate is this JVM's, not Redis's, while a
   * system's fill (Hourglass's) is bound by Redis. Both are rounded to the two decimals printed
   * before they are compared. Beside them, the growth of Redis's time per job from the first tenth
   * to the last, for both: the system's beyond the baseline's is the system's own.
   */
  @Override
  public Fields versusBaseline(Fields system, Fields baseline) {
    if (system.num("jobs") != baseline.num("jobs")) {
      return new Fields();
    }
    double own = Math.round(system.num("fill_redis_ratio") * 100) / 100.0;
    double base = Math.round(baseline.num("fill_redis_ratio") * 100) / 100.0;
    double below = Math.round((base - own) * 100) / 100.0;
    return new Fields()
        .put("fill_ratio_baseline", base)
        .put("fill_ratio_below_baseline", below)
        .put("fill_ratio_target_met", below <= FILL_RATIO_TOLERANCE)
        .put("fill_redis_us_growth_baseline", baseline.num("fill_redis_us_growth"));
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
