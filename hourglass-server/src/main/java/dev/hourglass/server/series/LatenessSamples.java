package dev.hourglass.server.series;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The lateness (delivery time minus due time) of the deliveries this server makes, per queue, since
 * the last {@link #drain}: a uniform sample of at most {@link #CAPACITY} values per queue
 * (reservoir sampling), so memory stays bounded however many jobs flow. Deliveries that library
 * workers make elsewhere are not seen here.
 */
public final class LatenessSamples {
  static final int CAPACITY = 4096;

  /** Percentiles of one interval, in milliseconds. */
  public record Percentiles(long p50Ms, long p99Ms) {}

  private final Map<String, Reservoir> byQueue = new ConcurrentHashMap<>();

  /**
   * Records one delivery of {@code queue} that was {@code latenessMs} late (0 when early).
   *
   * @param queue the job's queue
   * @param latenessMs delivery time minus due time; a negative value counts as 0
   */
  public void record(String queue, long latenessMs) {
    byQueue.computeIfAbsent(queue, q -> new Reservoir()).add(Math.max(0, latenessMs));
  }

  /** The percentiles of each queue's deliveries since the previous drain; starts a new interval. */
  Map<String, Percentiles> drain() {
    Map<String, Percentiles> out = new HashMap<>();
    for (String queue : byQueue.keySet()) {
      Reservoir r = byQueue.remove(queue);
      if (r != null) {
        r.percentiles().ifPresent(p -> out.put(queue, p));
      }
    }
    return out;
  }

  private static final class Reservoir {
    private final long[] values = new long[CAPACITY];
    private long seen;

    synchronized void add(long value) {
      if (seen < CAPACITY) {
        values[(int) seen] = value;
      } else {
        long slot = ThreadLocalRandom.current().nextLong(seen + 1);
        if (slot < CAPACITY) {
          values[(int) slot] = value;
        }
      }
      seen++;
    }

    synchronized Optional<Percentiles> percentiles() {
      int n = (int) Math.min(seen, CAPACITY);
      if (n == 0) {
        return Optional.empty();
      }
      long[] sorted = Arrays.copyOf(values, n);
      Arrays.sort(sorted);
      return Optional.of(new Percentiles(at(sorted, 0.50), at(sorted, 0.99)));
    }

    /** The nearest-rank percentile. */
    private static long at(long[] sorted, double q) {
      int rank = (int) Math.ceil(q * sorted.length);
      return sorted[Math.max(0, rank - 1)];
    }
  }
}
