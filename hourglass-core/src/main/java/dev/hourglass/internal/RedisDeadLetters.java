package dev.hourglass.internal;

import dev.hourglass.JobNotFoundException;
import dev.hourglass.JobPage;
import dev.hourglass.JobState;
import dev.hourglass.JobStateException;
import dev.hourglass.QueueStats;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.Status;
import dev.hourglass.internal.store.Store;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Dead letters of one queue, partition by partition, as futures of byte payloads; arguments are
 * checked at once. {@link HandleDeadLetters} is the public face.
 */
final class RedisDeadLetters {
  private static final int CHUNK = 1000;
  private final QueueTopology queue;
  private final Store store;
  private final JobPages pages;
  private final JobsById byId;

  RedisDeadLetters(QueueTopology queue, Store store, JobPages pages, JobsById byId) {
    this.queue = queue;
    this.store = store;
    this.pages = pages;
    this.byId = byId;
  }

  /** A page of dead jobs, oldest death first across partitions ({@link JobPages}). */
  CompletableFuture<JobPage<byte[]>> list(String cursor, int limit) {
    return pages.page(JobState.DEAD, limit, cursor);
  }

  CompletableFuture<Void> requeue(String id) {
    Names.id(id);
    return queue
        .snapshotAsync()
        .thenCompose(s -> byId.locate(s, id))
        .thenCompose(p -> store.deadRequeue(p, id))
        .thenCompose(
            status ->
                status == Status.NOT_FOUND ? notDead(id) : CompletableFuture.completedFuture(null));
  }

  /**
   * Why no dead job had the id: the job lives in another state ({@link JobStateException}), or no
   * job has it. One that went dead since is requeued after all.
   */
  private CompletableFuture<Void> notDead(String id) {
    return byId.get(id)
        .thenCompose(
            job -> {
              if (job.isEmpty()) {
                throw new JobNotFoundException(queue.name(), id);
              }
              if (job.get().state() == JobState.DEAD) {
                return requeue(id);
              }
              throw new JobStateException(queue.name(), id, job.get().state(), "requeue");
            });
  }

  CompletableFuture<Long> requeueAll() {
    return inChunks(store::deadRequeueOldest);
  }

  CompletableFuture<Long> purge() {
    return inChunks(store::deadPurge);
  }

  /** A call on up to a chunk of a partition's oldest dead jobs, answering how many it took. */
  private interface ChunkCall {
    CompletableFuture<Long> run(Partition part, int limit);
  }

  private CompletableFuture<Long> inChunks(ChunkCall call) {
    return queue.snapshotAsync().thenCompose(s -> chunks(call, s.partitions(), 0, 0));
  }

  /** Runs chunks on partition {@code p} until one takes less than a chunk, then on the next. */
  private CompletableFuture<Long> chunks(ChunkCall call, List<Partition> parts, int p, long total) {
    if (p >= parts.size()) {
      return CompletableFuture.completedFuture(total);
    }
    return call.run(parts.get(p), CHUNK)
        .thenCompose(n -> chunks(call, parts, n == CHUNK ? p : p + 1, total + n));
  }

  CompletableFuture<Long> count() {
    return pages.stats().thenApply(QueueStats::dead);
  }
}
