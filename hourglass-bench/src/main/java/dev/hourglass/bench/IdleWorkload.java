package dev.hourglass.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Idle cost: Redis commands per second, as INFO commandstats counts them (commands run inside
 * scripts included), while C consumers wait on a queue whose only jobs are due in an hour, and
 * {@code --queues} more queues hold a job each with no consumer; and the CPU Redis and this JVM
 * spent meanwhile. The harness's own INFO calls inside the window are subtracted.
 */
final class IdleWorkload implements Workload {
  private static final long SETTLE_MS = 2000;

  /** With idle queues: the server finds them within 10 s, and idle sweeps back off to 10 s. */
  private static final long SETTLE_QUEUES_MS = 30_000;

  private static final long PENDING_DELAY_MS = 3_600_000;
  private static final int COMMANDS_SHOWN = 6;

  @Override
  public String name() {
    return "idle";
  }

  @Override
  @SuppressWarnings("try") // the consumers only need to exist
  public Fields run(SystemUnderTest sut, RedisTarget redis, Options o) throws Exception {
    int consumers = o.consumers(10);
    int pending = o.jobs(1);
    int seconds = o.seconds();
    int queues = o.queues();
    Payloads payloads = o.payloads();
    long due = System.currentTimeMillis() + PENDING_DELAY_MS;
    Producer.batches(sut, pending, o.batchSize(), i -> payloads.job(due, i), done -> {});
    Map<String, Long> delta;
    long nanos;
    double redisCpu;
    double processCpu;
    try (AutoCloseable idleQueues = sut.idleQueues(queues, payloads.job(due, 0));
        AutoCloseable idle = sut.idleConsumers(consumers)) {
      // Connections opened, first claims and promotions done (the window measures what follows).
      Thread.sleep(queues > 0 ? SETTLE_QUEUES_MS : SETTLE_MS);
      Map<String, Long> first = redis.commandCalls();
      double redisCpuBefore = redis.cpuSeconds();
      long processCpuBefore = processCpuNanos();
      long start = System.nanoTime();
      Thread.sleep(seconds * 1000L); // the measured window
      nanos = System.nanoTime() - start;
      processCpu = (processCpuNanos() - processCpuBefore) * 100.0 / nanos;
      redisCpu = (redis.cpuSeconds() - redisCpuBefore) * 1e9 * 100.0 / nanos;
      Map<String, Long> second = redis.commandCalls();
      delta = new HashMap<>();
      second.forEach((cmd, calls) -> delta.put(cmd, calls - first.getOrDefault(cmd, 0L)));
      delta.merge("info", -3L, Long::sum); // the snapshots and CPU reads, counted by the second
      delta.values().removeIf(calls -> calls <= 0);
    }
    long total = delta.values().stream().mapToLong(Long::longValue).sum();
    StringJoiner byCommand = new StringJoiner(",");
    List<Map.Entry<String, Long>> sorted =
        delta.entrySet().stream()
            .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
            .limit(COMMANDS_SHOWN)
            .toList();
    sorted.forEach(e -> byCommand.add(e.getKey() + ":" + e.getValue()));
    return new Fields()
        .put("consumers", consumers)
        .put("consumer", sut.idleConsumerKind())
        .put("pending", pending)
        .put("queues", 1 + queues)
        .put("seconds", seconds)
        .put("commands", total)
        .put("commands_per_s", total * 1e9 / nanos)
        .put("by_command", total == 0 ? "none" : byCommand.toString())
        .put("redis_cpu_pct", Math.round(redisCpu * 100) / 100.0)
        .put("process_cpu_pct", Math.round(processCpu * 100) / 100.0);
  }

  /** CPU time this JVM has used, all its threads. */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  @Override
  public Fields ratio(Fields h, Fields r) {
    return new Fields()
        .ratio("commands_per_s_x_lower", r.num("commands_per_s"), h.num("commands_per_s"));
  }
}
