package dev.hourglass.internal;

import dev.hourglass.QueueNotEmptyException;
import dev.hourglass.internal.QueueTopology.Snapshot;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.Replies.Dropped;
import dev.hourglass.internal.store.Status;
import dev.hourglass.internal.store.Store;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Pausing, resuming and deleting one queue, partition by partition. */
final class QueueLifecycle {
  private final RedisQueue queue;
  private final Store store;

  QueueLifecycle(RedisQueue queue, Store store) {
    this.queue = queue;
    this.store = store;
  }

  /** Pauses ({@code true}) or resumes every partition's deliveries. */
  CompletableFuture<Void> pause(boolean paused) {
    return queue
        .topology
        .snapshotAsync()
        .thenCompose(
            s ->
                CompletableFuture.allOf(
                    s.partitions().stream()
                        .map(p -> store.pause(p, paused))
                        .toArray(CompletableFuture[]::new)));
  }

  /**
   * Deletes the queue: its partitions, then its registry entry and settings. Without {@code
   * withJobs}, a queue holding a job in any state is refused with {@link QueueNotEmptyException}
   * before anything changes (and each partition checks again as it goes, atomically: a job enqueued
   * meanwhile makes it refuse, having deleted only empty partitions). The future holds how many
   * jobs were deleted.
   */
  CompletableFuture<Long> delete(boolean withJobs) {
    CompletableFuture<Void> checked =
        withJobs
            ? CompletableFuture.completedFuture(null)
            : queue
                .stats()
                .thenAccept(
                    stats -> {
                      if (stats.total() > 0) {
                        throw new QueueNotEmptyException(queue.name(), stats.total());
                      }
                    });
    return checked
        .thenCompose(ok -> queue.topology.snapshotAsync())
        .thenCompose(s -> drop(s, withJobs, 0, 0))
        .thenCompose(
            jobs ->
                store
                    .registry()
                    .deleteQueue(queue.name())
                    .thenApply(
                        version -> {
                          queue.topology.forget();
                          return jobs;
                        }));
  }

  private CompletableFuture<Long> drop(Snapshot s, boolean withJobs, int index, long jobs) {
    List<Partition> parts = s.partitions();
    if (index >= parts.size()) {
      return CompletableFuture.completedFuture(jobs);
    }
    return store
        .drop(parts.get(index), withJobs)
        .thenCompose(
            (Dropped d) -> {
              if (d.status() == Status.NOT_EMPTY) {
                throw new QueueNotEmptyException(queue.name(), d.jobs());
              }
              return drop(s, withJobs, index + 1, jobs + d.jobs());
            });
  }
}
