package dev.hourglass.bench;

/**
 * End to end: jobs due uniformly over a delay range, consumed and acknowledged by C consumers;
 * lateness = delivery wall clock - due time. With both delays 0 it measures pure throughput.
 */
final class E2eWorkload implements Workload {
  private static final int DEFAULT_JOBS = 100_000;

  @Override
  public String name() {
    return "e2e";
  }

  @Override
  public int warmupJobs(Options o) {
    return o.warmupJobs(o.jobs(DEFAULT_JOBS), 10_000);
  }

  @Override
  public Fields run(SystemUnderTest sut, RedisTarget redis, Options o) throws Exception {
    Burst burst =
        new Burst(
            sut,
            o.jobs(DEFAULT_JOBS),
            o.delays(1000, 3000),
            o.consumers(4),
            o.batchSize(),
            o.timeoutSeconds());
    return new Fields()
        .putAll("", burst.run(o.payloads(), 0))
        .put("payload_bytes", o.payloadLabel())
        .putAll("", sut.consumerFields());
  }

  @Override
  public Fields ratio(Fields h, Fields r) {
    return latenessRatios(new Fields(), "", h, r);
  }

  /** The ratios of a {@link Burst}'s fields, keys prefixed with {@code prefix} on both sides. */
  static Fields latenessRatios(Fields into, String prefix, Fields h, Fields r) {
    for (String p : new String[] {"p50", "p99", "p999", "max"}) {
      String key = prefix + "lateness_" + p + "_ms";
      into.latenessRatio(prefix + "lateness_" + p + "_x_lower", r.num(key), h.num(key));
    }
    String rate = prefix + "e2e_jobs_per_s";
    into.ratio(prefix + "e2e_jobs_per_s_x_faster", h.num(rate), r.num(rate));
    String jobs = prefix + "jobs";
    String delivered = prefix + "delivered";
    if (h.num(delivered) < h.num(jobs) || r.num(delivered) < r.num(jobs)) {
      // Percentiles of a run that timed out cover the delivered jobs only.
      into.put(prefix + "note", "not_all_delivered_ratios_cover_delivered_jobs_only");
    }
    return into;
  }
}
