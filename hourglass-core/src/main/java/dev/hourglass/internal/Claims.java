package dev.hourglass.internal;

import dev.hourglass.Delivery;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.RecordCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The claims of one queue: from one partition, over all partitions from a rotating first one, and
 * long polls ({@link ClaimWaiters}). Never blocks the calling thread.
 */
final class Claims {
  private final HourglassClient client;
  private final RedisQueue queue;
  private final AtomicInteger cursor = new AtomicInteger();
  private volatile ClaimWaiters waiters;

  Claims(HourglassClient client, RedisQueue queue) {
    this.client = client;
    this.queue = queue;
  }

  /** A long poll: see {@link dev.hourglass.Queue#claimAsync(int, Duration, Duration)}. */
  CompletableFuture<List<Delivery<byte[]>>> waitFor(int max, Duration visibility, Duration wait) {
    return waiters().claim(max, visibility, wait);
  }

  private ClaimWaiters waiters() {
    ClaimWaiters w = waiters;
    if (w == null) {
      synchronized (this) {
        if (waiters == null) {
          waiters = new ClaimWaiters(client, queue);
        }
        w = waiters;
      }
    }
    return w;
  }

  /** Ends long-poll waits and stops their watchers. */
  void close() {
    ClaimWaiters w = waiters;
    if (w != null) {
      w.close();
    }
  }

  /**
   * Claims up to {@code max} jobs over the partitions, starting from a rotating one, without
   * waiting; never blocks the calling thread.
   */
  CompletableFuture<List<Delivery<byte[]>>> any(int max, Duration visibility) {
    return queue
        .topology
        .snapshotAsync()
        .thenCompose(
            s -> {
              int start = Math.floorMod(cursor.getAndIncrement(), s.partitions().size());
              return claimFrom(s.partitions(), start, 0, max, visibility, new ArrayList<>());
            });
  }

  private CompletableFuture<List<Delivery<byte[]>>> claimFrom(
      List<Partition> parts,
      int start,
      int i,
      int max,
      Duration visibility,
      List<Delivery<byte[]>> out) {
    int n = parts.size();
    if (i >= n || out.size() >= max) {
      return CompletableFuture.completedFuture(out);
    }
    return from(parts.get((start + i) % n), max - out.size(), visibility)
        .thenCompose(
            got -> {
              out.addAll(got);
              return claimFrom(parts, start, i + 1, max, visibility, out);
            });
  }

  /** Claims from one partition. */
  CompletableFuture<List<Delivery<byte[]>>> from(Partition part, int max, Duration visibility) {
    long visMs = visibility == null ? 0 : visibility.toMillis();
    return client
        .deliveries
        .claim(part, max, visMs, client.random.token())
        .thenApply(
            claimed -> {
              List<Delivery<byte[]>> out = new ArrayList<>(claimed.jobs().size());
              for (var job : claimed.jobs()) {
                RecordCodec.Decoded r = job.record();
                out.add(
                    new Delivery<>(
                        queue.name(),
                        job.id(),
                        r.toPayload(),
                        job.attempt(),
                        r.maxAttempts(),
                        job.receipt(),
                        Instant.ofEpochMilli(job.leaseUntilMs()),
                        Instant.ofEpochMilli(r.due()),
                        Instant.ofEpochMilli(r.created()),
                        visibility != null ? visibility : Duration.ofMillis(r.visibilityMs()),
                        queue.backoffOf(r),
                        r.lastError().isEmpty() ? Optional.empty() : Optional.of(r.lastError())));
              }
              return out;
            });
  }
}
