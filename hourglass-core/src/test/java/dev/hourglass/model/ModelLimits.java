package dev.hourglass.model;

import dev.hourglass.QueueLimits;
import java.time.Duration;

/**
 * A try's flow-control limits: a concurrency and a rate of {@code rateMax} per hour (0: none). An
 * hour outlasts every try, so the rate window holds every delivery of the try: on a queue of one
 * partition a claim may lease {@code rateMax} less the deliveries so far (the world's counter). The
 * model knows deliveries per queue, not per partition, so tries on two partitions take no rate.
 */
public record ModelLimits(int concurrency, int rateMax) {
  public static final ModelLimits NONE = new ModelLimits(0, 0);
  static final Duration RATE_PERIOD = Duration.ofHours(1);

  ModelLimits forPartitions(int partitions) {
    return partitions == 1 ? this : new ModelLimits(concurrency, 0);
  }

  /** The queue's limits, or null for none. */
  public QueueLimits queueLimits() {
    if (concurrency == 0 && rateMax == 0) {
      return null;
    }
    return QueueLimits.of(
        rateMax == 0 ? null : new QueueLimits.Rate(rateMax, RATE_PERIOD),
        concurrency == 0 ? null : concurrency);
  }

  /** How many jobs a claim may lease in partition {@code p} of world {@code x} (caught up). */
  int allowance(Run run, World x, int p) {
    int allow = Integer.MAX_VALUE;
    if (concurrency > 0) {
      long leased = x.in(p).stream().filter(ModelJob::leased).count();
      allow = (int) Math.min(allow, QueueLimits.share(concurrency, p, run.partitions) - leased);
    }
    if (rateMax > 0) {
      allow = (int) Math.min(allow, rateMax - x.counters().delivered());
    }
    return Math.max(0, allow);
  }

  @Override
  public String toString() {
    return concurrency == 0 && rateMax == 0
        ? "no limits"
        : "limits concurrency " + concurrency + ", rate " + rateMax + "/h";
  }
}
