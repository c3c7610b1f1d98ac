package dev.hourglass.bench;

/**
 * Enqueue throughput: single async enqueues with a bounded window in flight, then batches. Jobs are
 * due in 30 minutes, so nothing is delivered meanwhile; the batch phase starts with the single
 * phase's jobs still pending, on both systems alike.
 */
final class EnqueueWorkload implements Workload {
  private static final int DEFAULT_JOBS = 100_000;
  private static final long DELAY_MS = 30 * 60_000L;

  @Override
  public String name() {
    return "enqueue";
  }

  @Override
  public int warmupJobs(Options o) {
    // With 10k jobs of warm-up the JIT compilers still took about half the CPU during the measured
    // run (async-profiler); 100k lets both systems reach their compiled code first.
    return o.warmupJobs(o.jobs(DEFAULT_JOBS), 100_000);
  }

  /**
   * Five rounds: the Hourglass client's single-call rate still climbed from round to round through
   * the fourth (82k, 133k, 157k, 184k, 216k jobs/s, with the C2 compiler busy on Lettuce's and
   * Netty's paths), Redisson's from the second on was flat (23k, then 38-40k). The rounds print
   * their figures, so a cold client's rate stays visible.
   */
  @Override
  public int warmupRounds(Options o) {
    return o.warmupRounds(5);
  }

  @Override
  public Fields run(SystemUnderTest sut, RedisTarget redis, Options o) throws Exception {
    int jobs = o.jobs(DEFAULT_JOBS);
    Payloads payloads = o.payloads();
    long due = System.currentTimeMillis() + DELAY_MS;

    long start = System.nanoTime();
    Producer.singles(sut, jobs, o.window(), i -> payloads.job(due, i));
    double single = jobs / seconds(start);

    start = System.nanoTime();
    Producer.batches(sut, jobs, o.batchSize(), i -> payloads.job(due, jobs + i), done -> {});
    double batch = jobs / seconds(start);

    return new Fields()
        .put("jobs", jobs)
        .put("payload_bytes", o.payloadLabel())
        .put("window", o.window())
        .rate("single_jobs_per_s", single)
        .put("batch_size", o.batchSize())
        .put("batches_in_flight", Producer.BATCHES_IN_FLIGHT)
        .rate("batch_jobs_per_s", batch)
        .put("batch_method", sut.batchMethod());
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  @Override
  public Fields ratio(Fields h, Fields r) {
    return new Fields()
        .ratio("single_x_faster", h.num("single_jobs_per_s"), r.num("single_jobs_per_s"))
        .ratio("batch_x_faster", h.num("batch_jobs_per_s"), r.num("batch_jobs_per_s"));
  }
}
