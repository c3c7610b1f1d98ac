package dev.hourglass.bench;

import dev.hourglass.EnqueueResult;
import dev.hourglass.Hourglass;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import dev.hourglass.forward.Forwarder;
import dev.hourglass.forward.ForwarderOptions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Forwarding to a broker: {@code --jobs} jobs due uniformly over the delay range, published by one
 * {@link Forwarder} to a RabbitMQ exchange or a Kafka topic ({@code --broker}) that this harness
 * starts as the tests do, and received by one consumer there. Lateness = the consumer's receive
 * wall clock - the job's due time (Redis's clock; same machine). Forward rate = jobs received /
 * (last receive - first due).
 */
final class ForwardWorkload implements Workload {
  private static final int DEFAULT_JOBS = 10_000;

  @Override
  public String name() {
    return "forward";
  }

  @Override
  public Fields run(SystemUnderTest sut, RedisTarget redis, Options o) throws Exception {
    int jobs = o.jobs(DEFAULT_JOBS);
    Options.Delays delays = o.delays(1000, 5000);
    Map<String, Long> due = new ConcurrentHashMap<>();
    Map<String, Long> arrived = new ConcurrentHashMap<>();
    AtomicInteger duplicates = new AtomicInteger();
    AtomicInteger received = new AtomicInteger();
    AtomicLong lastArrival = new AtomicLong();
    try (ForwardBroker broker = ForwardBroker.start(o.broker());
        Hourglass hourglass = Hourglass.builder().redisUri(redis.uri()).build()) {
      System.out.println("# broker: " + broker.describe());
      broker.consume(
          (id, at) -> {
            if (arrived.putIfAbsent(id, at) != null) {
              duplicates.incrementAndGet();
            }
            received.incrementAndGet();
            lastArrival.accumulateAndGet(at, Math::max);
          });
      Queue<byte[]> queue = hourglass.queue(Bench.QUEUE);
      try (Forwarder f =
          Forwarder.start(
              queue,
              broker.target(),
              ForwarderOptions.builder().concurrency(o.concurrency()).build())) {
        long start = System.currentTimeMillis();
        enqueue(queue, jobs, delays, new Random(o.seed()), due);
        long enqueueMs = System.currentTimeMillis() - start;
        long giveUp =
            System.nanoTime()
                + TimeUnit.MILLISECONDS.toNanos(delays.maxMs())
                + TimeUnit.SECONDS.toNanos(o.timeoutSeconds());
        while (arrived.size() < jobs && System.nanoTime() < giveUp) {
          Thread.sleep(20); // the harness polls its own counter; no test synchronises on this
        }
        return fields(jobs, delays, enqueueMs, due, arrived, duplicates.get(), lastArrival.get())
            .put("broker", o.broker())
            .put("concurrency", o.concurrency())
            .put("timed_out", arrived.size() < jobs);
      }
    }
  }

  private static void enqueue(
      Queue<byte[]> queue, int jobs, Options.Delays delays, Random random, Map<String, Long> due) {
    List<JobSpec> batch = new ArrayList<>();
    long span = delays.maxMs() - delays.minMs();
    for (int i = 0; i < jobs; i++) {
      long delay = delays.minMs() + (span == 0 ? 0 : (long) (random.nextDouble() * span));
      byte[] payload = ("{\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8);
      batch.add(queue.spec(payload).delay(Duration.ofMillis(delay)).build());
      if (batch.size() == 1000 || i == jobs - 1) {
        for (EnqueueResult r : queue.enqueueAll(batch)) {
          due.put(r.id(), r.runAt().toEpochMilli());
        }
        batch.clear();
      }
    }
  }

  private static Fields fields(
      int jobs,
      Options.Delays delays,
      long enqueueMs,
      Map<String, Long> due,
      Map<String, Long> arrived,
      int duplicates,
      long lastArrival) {
    long[] late =
        arrived.entrySet().stream()
            .filter(e -> due.containsKey(e.getKey()))
            .mapToLong(e -> e.getValue() - due.get(e.getKey()))
            .sorted()
            .toArray();
    long firstDue = due.values().stream().mapToLong(Long::longValue).min().orElse(0);
    int n = late.length;
    double rate = n == 0 ? 0 : n * 1000.0 / Math.max(1, lastArrival - firstDue);
    return new Fields()
        .put("jobs", jobs)
        .put("delay_ms", delays.toString())
        .put("enqueue_ms", enqueueMs)
        .put("delivered", n)
        .put("duplicates", duplicates)
        .put("early", Arrays.stream(late).filter(x -> x < 0).count())
        .rate("forward_jobs_per_s", rate)
        .put("lateness_p50_ms", Burst.percentile(late, 0.50))
        .put("lateness_p99_ms", Burst.percentile(late, 0.99))
        .put("lateness_max_ms", n == 0 ? -1 : late[n - 1]);
  }

  @Override
  public Fields ratio(Fields hourglass, Fields redisson) {
    return new Fields(); // Redisson has no forwarder: Bench prints note=needs_both_systems
  }
}
