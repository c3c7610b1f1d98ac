package dev.hourglass.bench;

import dev.hourglass.bench.Payloads.Job;
import java.util.List;

/**
 * Redis memory per pending job: {@code used_memory} growth from the first job (which creates the
 * queue's keys) to the last, divided by the jobs in between. Jobs are due in 1 to 2 hours. Also
 * reports the same from {@code used_memory_dataset}, which leaves out client buffers and other
 * server overhead.
 */
final class MemoryWorkload implements Workload {
  private static final int DEFAULT_JOBS = 100_000;

  @Override
  public String name() {
    return "memory";
  }

  @Override
  public Fields run(SystemUnderTest sut, RedisTarget redis, Options o) throws Exception {
    int jobs = Math.max(2, o.jobs(DEFAULT_JOBS));
    Options.Delays delays = o.delays(3_600_000, 7_200_000);
    Payloads payloads = o.payloads();
    long now = System.currentTimeMillis();
    sut.enqueueBatch(List.of(job(payloads, now, delays, 0)));
    RedisTarget.Memory before = redis.memory();
    Producer.batches(
        sut, jobs - 1, o.batchSize(), i -> job(payloads, now, delays, i + 1), done -> {});
    RedisTarget.Memory after = redis.memory();
    return new Fields()
        .put("jobs", jobs)
        .put("payload_bytes", o.payloadLabel())
        .put("delay_ms", delays.toString())
        .put("used_memory_before", before.used())
        .put("used_memory_after", after.used())
        .rate("bytes_per_job", (after.used() - before.used()) / (double) (jobs - 1))
        .rate("dataset_bytes_per_job", (after.dataset() - before.dataset()) / (double) (jobs - 1))
        .put("keys", redis.dbSize());
  }

  private static Job job(Payloads payloads, long now, Options.Delays delays, int seq) {
    return payloads.job(now + payloads.delay(delays.minMs(), delays.maxMs()), seq);
  }

  @Override
  public Fields ratio(Fields h, Fields r) {
    return new Fields()
        .ratio("bytes_per_job_x_lower", r.num("bytes_per_job"), h.num("bytes_per_job"));
  }
}
