package dev.hourglass.internal;

import dev.hourglass.QueueStats;
import dev.hourglass.internal.store.Replies.Counts;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A queue's {@link QueueStats}: its partitions' counts and counters, summed. */
final class QueueCounts {
  private QueueCounts() {}

  static QueueStats sum(String queue, List<Counts> partitions) {
    long ready = 0, inflight = 0, dead = 0, heldBack = 0;
    boolean paused = false;
    Map<String, Long> counters = new HashMap<>();
    for (Counts c : partitions) {
      ready += c.ready();
      inflight += c.inflight();
      dead += c.dead();
      paused |= c.paused();
      heldBack += c.heldBack();
      c.counters().forEach((k, v) -> counters.merge(k, v, Long::sum));
    }
    // Every removal counts in exactly one of these counters (see includes/partition.lua).
    long live =
        counter(counters, "enqueued")
            - counter(counters, "acked")
            - counter(counters, "cancelled")
            - counter(counters, "expired")
            - counter(counters, "purged");
    return new QueueStats(
        queue,
        partitions.size(),
        Math.max(0, live - ready - inflight - dead),
        ready,
        inflight,
        dead,
        paused,
        new QueueStats.Counters(
            counter(counters, "enqueued"),
            counter(counters, "delivered"),
            counter(counters, "acked"),
            counter(counters, "retried"),
            counter(counters, "dead"),
            counter(counters, "expired"),
            counter(counters, "cancelled"),
            counter(counters, "occurrences")),
        heldBack);
  }

  private static long counter(Map<String, Long> counters, String name) {
    return counters.getOrDefault(name, 0L);
  }
}
