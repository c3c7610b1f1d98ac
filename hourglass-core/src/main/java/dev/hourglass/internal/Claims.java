package dev.hourglass.internal;

import dev.hourglass.Delivery;
import dev.hourglass.internal.store.Deliveries;
import dev.hourglass.internal.store.Partition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The claims of one queue, without waiting: from one partition, or over all partitions from a
 * rotating first one. Never blocks the calling thread. Long polls wait in {@link ClaimWaiters}.
 */
final class Claims {
  private final QueueTopology topology;
  private final Deliveries deliveries;
  private final RandomIds random;
  private final JobViews views;
  private final AtomicInteger cursor = new AtomicInteger();

  Claims(QueueTopology topology, Deliveries deliveries, RandomIds random, JobViews views) {
    this.topology = topology;
    this.deliveries = deliveries;
    this.random = random;
    this.views = views;
  }

  /**
   * What a claim got: its jobs, and {@code heldForMs}: 0, or, when the queue's flow-control limits
   * held ready jobs back, how long after the claim they next let one through (the soonest of the
   * partitions that held jobs back).
   */
  record Got(List<Delivery<byte[]>> jobs, long heldForMs) {
    Got plus(Got more) {
      List<Delivery<byte[]>> all = new ArrayList<>(jobs);
      all.addAll(more.jobs);
      long held =
          heldForMs == 0
              ? more.heldForMs
              : more.heldForMs == 0 ? heldForMs : Math.min(heldForMs, more.heldForMs);
      return new Got(all, held);
    }
  }

  /**
   * Claims up to {@code max} jobs over the partitions, starting from a rotating one, without
   * waiting; never blocks the calling thread.
   */
  CompletableFuture<List<Delivery<byte[]>>> any(int max, Duration visibility) {
    return anyHeld(max, visibility).thenApply(Got::jobs);
  }

  /** {@link #any}, telling when limits held jobs back. */
  CompletableFuture<Got> anyHeld(int max, Duration visibility) {
    return topology
        .snapshotAsync()
        .thenCompose(
            s -> {
              int start = Math.floorMod(cursor.getAndIncrement(), s.partitions().size());
              return claimFrom(s.partitions(), start, 0, max, visibility, new Got(List.of(), 0));
            });
  }

  private CompletableFuture<Got> claimFrom(
      List<Partition> parts, int start, int i, int max, Duration visibility, Got out) {
    int n = parts.size();
    if (i >= n || out.jobs().size() >= max) {
      return CompletableFuture.completedFuture(out);
    }
    return from(parts.get((start + i) % n), max - out.jobs().size(), visibility)
        .thenCompose(got -> claimFrom(parts, start, i + 1, max, visibility, out.plus(got)));
  }

  /** Claims from one partition. */
  CompletableFuture<Got> from(Partition part, int max, Duration visibility) {
    long visMs = visibility == null ? 0 : visibility.toMillis();
    return deliveries
        .claim(part, max, visMs, random.token())
        .thenApply(
            claimed -> {
              List<Delivery<byte[]>> out = new ArrayList<>(claimed.jobs().size());
              for (var job : claimed.jobs()) {
                out.add(
                    views.delivery(
                        job.id(),
                        job.record(),
                        job.attempt(),
                        job.receipt(),
                        job.leaseUntilMs(),
                        visibility));
              }
              return new Got(out, claimed.heldForMs());
            });
  }
}
