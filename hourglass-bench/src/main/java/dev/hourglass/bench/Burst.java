package dev.hourglass.bench;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The end-to-end measurement shared by the {@code e2e} and {@code scale} workloads: consumers
 * start, jobs due over a delay range are enqueued in batches, and every delivery is recorded until
 * all jobs came or the time is up.
 */
final class Burst {
  private final SystemUnderTest sut;
  private final int jobs;
  private final Options.Delays delays;
  private final int consumers;
  private final int batchSize;
  private final int timeoutSeconds;

  Burst(
      SystemUnderTest sut,
      int jobs,
      Options.Delays delays,
      int consumers,
      int batchSize,
      int timeoutSeconds) {
    this.sut = sut;
    this.jobs = jobs;
    this.delays = delays;
    this.consumers = consumers;
    this.batchSize = batchSize;
    this.timeoutSeconds = timeoutSeconds;
  }

  /**
   * Runs the burst with sequence numbers {@code seqBase..seqBase+jobs-1}; a delivery of any other
   * sequence number (a job enqueued before, not part of the burst) is counted as {@code foreign}.
   */
  @SuppressWarnings("try") // the consumers only need to run, and stop at the end
  Fields run(Payloads payloads, int seqBase) throws Exception {
    Tracker tracker = new Tracker(seqBase, jobs);
    long t0;
    long enqueueMs;
    long firstDue = Long.MAX_VALUE;
    long[] due = new long[jobs];
    boolean[] storedLate = new boolean[jobs]; // written by the producer's callbacks, read after
    boolean timedOut;
    try (AutoCloseable running = sut.consume(consumers, tracker::deliver)) {
      t0 = System.currentTimeMillis();
      for (int i = 0; i < jobs; i++) {
        due[i] = t0 + payloads.delay(delays.minMs(), delays.maxMs());
        firstDue = Math.min(firstDue, due[i]);
      }
      Producer.batches(
          sut,
          jobs,
          batchSize,
          i -> payloads.job(due[i], seqBase + i),
          (first, size, total) -> {
            long now = System.currentTimeMillis();
            for (int i = first; i < first + size; i++) {
              if (now > due[i]) {
                storedLate[i] = true;
              }
            }
          });
      long enqueued = System.currentTimeMillis();
      enqueueMs = enqueued - t0;
      long deadline = Math.max(t0 + delays.maxMs(), enqueued) + timeoutSeconds * 1000L;
      while (tracker.delivered.get() < jobs && System.currentTimeMillis() < deadline) {
        Thread.sleep(10);
      }
      timedOut = tracker.delivered.get() < jobs;
    }
    return tracker
        .fields(firstDue, enqueueMs, timedOut)
        .putAll("", storedInTime(tracker, storedLate));
  }

  /**
   * The lateness of the jobs whose batch call had completed before their due time: Redis held them
   * in time, so their lateness is the delivery's alone. When the enqueue outlasts the minimum
   * delay, the others were stored after their due time and are late whatever the delivery does.
   */
  private static Fields storedInTime(Tracker tracker, boolean[] storedLate) {
    long[] late = new long[storedLate.length];
    int n = 0;
    int storedLateCount = 0;
    for (int i = 0; i < storedLate.length; i++) {
      if (storedLate[i]) {
        storedLateCount++;
      } else if (tracker.seen.get(i) > 0) {
        late[n++] = tracker.lateness[i];
      }
    }
    late = Arrays.copyOf(late, n);
    Arrays.sort(late);
    return new Fields()
        .put("stored_late", storedLateCount)
        .put("stored_in_time_lateness_p99_ms", percentile(late, 0.99))
        .put("stored_in_time_lateness_max_ms", n == 0 ? -1 : late[n - 1]);
  }

  /** Records deliveries by sequence number; safe for concurrent consumers. */
  private final class Tracker {
    final int base;
    final AtomicIntegerArray seen;
    final long[] lateness;
    final AtomicInteger delivered = new AtomicInteger();
    final AtomicInteger duplicates = new AtomicInteger();
    final AtomicInteger foreign = new AtomicInteger();
    final AtomicLong lastDelivery = new AtomicLong(Long.MIN_VALUE);

    Tracker(int base, int jobs) {
      this.base = base;
      this.seen = new AtomicIntegerArray(jobs);
      this.lateness = new long[jobs];
    }

    void deliver(byte[] payload) {
      long now = System.currentTimeMillis();
      int i = Payloads.seq(payload) - base;
      if (i < 0 || i >= seen.length()) {
        foreign.incrementAndGet();
        return;
      }
      if (seen.getAndIncrement(i) > 0) {
        duplicates.incrementAndGet();
        return;
      }
      lateness[i] = now - Payloads.dueMs(payload);
      if (now > lastDelivery.get()) {
        // At most one update per millisecond: a CAS per delivery from every consumer thread
        // showed in profiles of the harness itself.
        lastDelivery.accumulateAndGet(now, Math::max);
      }
      delivered.incrementAndGet(); // publishes lateness[i] to the reader of delivered
    }

    Fields fields(long firstDue, long enqueueMs, boolean timedOut) {
      long[] late = new long[delivered.get()];
      int n = 0;
      for (int i = 0; i < seen.length() && n < late.length; i++) {
        if (seen.get(i) > 0) {
          late[n++] = lateness[i];
        }
      }
      late = Arrays.copyOf(late, n);
      Arrays.sort(late);
      Fields f =
          new Fields()
              .put("jobs", jobs)
              .put("delay_ms", delays.toString())
              .put("consumers", consumers)
              .put("enqueue_ms", enqueueMs)
              .put("delivered", n)
              .put("duplicates", duplicates.get())
              .put("foreign", foreign.get())
              .put("early", Arrays.stream(late).filter(x -> x < 0).count())
              .put("lateness_p50_ms", percentile(late, 0.50))
              .put("lateness_p99_ms", percentile(late, 0.99))
              .put("lateness_p999_ms", percentile(late, 0.999))
              .put("lateness_max_ms", n == 0 ? -1 : late[n - 1]);
      long span = Math.max(1, lastDelivery.get() - firstDue);
      return f.rate("e2e_jobs_per_s", n == 0 ? 0 : n * 1000.0 / span).put("timed_out", timedOut);
    }
  }

  /** Nearest-rank percentile of a sorted array; -1 when empty. */
  static long percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return -1;
    }
    int rank = (int) Math.ceil(p * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }
}
