package dev.hourglass.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Idle cost: Redis commands per second, as INFO commandstats counts them (commands run inside
 * scripts included), while C consumers wait on a queue whose only jobs are due in an hour. The
 * harness's own INFO call inside the window is subtracted.
 */
final class IdleWorkload implements Workload {
  private static final long SETTLE_MS = 2000;
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
    Payloads payloads = new Payloads(o.payloadBytes(), o.seed());
    long due = System.currentTimeMillis() + PENDING_DELAY_MS;
    Producer.batches(sut, pending, o.batchSize(), i -> payloads.job(due, i), done -> {});
    Map<String, Long> delta;
    long nanos;
    try (AutoCloseable idle = sut.idleConsumers(consumers)) {
      Thread.sleep(SETTLE_MS); // connections opened, first claims and promotions done
      Map<String, Long> first = redis.commandCalls();
      long start = System.nanoTime();
      Thread.sleep(seconds * 1000L);
      Map<String, Long> second = redis.commandCalls();
      nanos = System.nanoTime() - start;
      delta = new HashMap<>();
      second.forEach((cmd, calls) -> delta.put(cmd, calls - first.getOrDefault(cmd, 0L)));
      delta.merge("info", -1L, Long::sum); // the first snapshot, counted by the second
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
        .put("seconds", seconds)
        .put("commands", total)
        .put("commands_per_s", total * 1e9 / nanos)
        .put("by_command", total == 0 ? "none" : byCommand.toString());
  }

  @Override
  public Fields ratio(Fields h, Fields r) {
    return new Fields()
        .ratio("commands_per_s_x_lower", r.num("commands_per_s"), h.num("commands_per_s"));
  }
}
