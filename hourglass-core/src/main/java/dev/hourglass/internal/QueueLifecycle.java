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
  private final QueueTopology queue;
  private final Store store;
  private final JobPages pages;

  QueueLifecycle(QueueTopology queue, Store store, JobPages pages) {
    this.queue = queue;
    this.store = store;
    this.pages = pages;
  }

  /** Pauses ({@code true}) or resumes every partition's deliveries. */
  CompletableFuture<Void> pause(boolean paused) {
    return queue
        .snapshotAsync()
        .thenCompose(
            s ->
                CompletableFuture.allOf(
                    s.partitions().stream()
                        .map(p -> store.pause(p, paused))
                        .toArray(CompletableFuture[]::new)));
  }

  /**
   * Deletes the queue: its partitions, then its registry entry and settings, then its partitions
   * once more. Without {@code withJobs}, a queue holding a job in any state is refused with {@link
   * QueueNotEmptyException} before anything changes (and each partition checks again as it goes,
   * atomically: a job enqueued meanwhile makes it refuse, having deleted only empty partitions).
   * The second pass finds a job that a client, still taking the queue for existing, enqueued while
   * the partitions were dropped: a forced delete deletes it too; otherwise the queue is registered
   * again with its settings, so the job is not left in a queue nobody lists, and the delete is
   * refused. The future holds how many jobs were deleted.
   */
  CompletableFuture<Long> delete(boolean withJobs) {
    CompletableFuture<Void> checked =
        withJobs
            ? CompletableFuture.completedFuture(null)
            : pages
                .stats()
                .thenAccept(
                    stats -> {
                      if (stats.total() > 0) {
                        throw new QueueNotEmptyException(queue.name(), stats.total());
                      }
                    });
    return checked
        .thenCompose(ok -> queue.snapshotAsync())
        .thenCompose(
            s ->
                drop(s, withJobs, 0, 0)
                    .thenCompose(
                        jobs ->
                            store
                                .registry()
                                .deleteQueue(queue.name())
                                .thenCompose(version -> drop(s, withJobs, 0, jobs))
                                .handle(
                                    (total, failure) -> {
                                      queue.forget();
                                      if (failure == null) {
                                        return CompletableFuture.completedFuture(total);
                                      }
                                      // Put the queue back around the job that arrived meanwhile.
                                      return store
                                          .registry()
                                          .upsertQueue(
                                              queue.name(),
                                              true,
                                              SettingsCodec.toFields(s.settings()))
                                          .<Long>thenCompose(
                                              r -> CompletableFuture.failedFuture(failure));
                                    })
                                .thenCompose(f -> f)));
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
