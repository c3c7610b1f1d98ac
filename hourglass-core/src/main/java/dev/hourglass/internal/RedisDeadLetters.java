package dev.hourglass.internal;

import dev.hourglass.DeadPage;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobInfo;
import dev.hourglass.JobNotFoundException;
import dev.hourglass.JobState;
import dev.hourglass.QueueStats;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.Replies.DeadJob;
import dev.hourglass.internal.store.Status;
import dev.hourglass.internal.store.Store;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Dead letters of one queue, partition by partition, as futures of byte payloads; arguments are
 * checked at once. {@link HandleDeadLetters} is the public face.
 */
final class RedisDeadLetters {
  private static final int CHUNK = 1000;
  private final RedisQueue queue;
  private final Store store;

  RedisDeadLetters(RedisQueue queue, Store store) {
    this.queue = queue;
    this.store = store;
  }

  /** Where a page ends: partition, time of death and id of the last job listed. */
  private record Cursor(int partition, long at, String id) {
    String encode() {
      String text = partition + ":" + at + ":" + id;
      return Base64.getUrlEncoder()
          .withoutPadding()
          .encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    static Cursor decode(String cursor) {
      try {
        String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        String[] parts = text.split(":", 3);
        return new Cursor(Integer.parseInt(parts[0]), Long.parseLong(parts[1]), parts[2]);
      } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
        throw new InvalidArgumentException("cursor", "is not a cursor from a previous page");
      }
    }
  }

  CompletableFuture<DeadPage<byte[]>> list(String cursor, int limit) {
    if (limit < 1 || limit > 1000) {
      throw new InvalidArgumentException("limit", "must be between 1 and 1000, was " + limit);
    }
    Cursor from =
        cursor == null || cursor.isEmpty() ? new Cursor(0, -1, "") : Cursor.decode(cursor);
    return queue
        .topology
        .snapshotAsync()
        .thenCompose(
            s -> {
              List<Partition> parts = s.partitions();
              if (from.partition() < 0 || from.partition() >= parts.size()) {
                throw new InvalidArgumentException(
                    "cursor", "is not a cursor from a previous page");
              }
              return page(parts, from.partition(), from, limit, new ArrayList<>(), null);
            });
  }

  /** Lists partition {@code p} onwards until the page is full or the partitions end. */
  private CompletableFuture<DeadPage<byte[]>> page(
      List<Partition> parts,
      int p,
      Cursor from,
      int limit,
      List<JobInfo<byte[]>> jobs,
      Cursor last) {
    if (p >= parts.size() || jobs.size() >= limit) {
      Optional<String> next =
          jobs.size() == limit && last != null ? Optional.of(last.encode()) : Optional.empty();
      return CompletableFuture.completedFuture(new DeadPage<>(jobs, next));
    }
    boolean first = p == from.partition();
    return store
        .deadList(parts.get(p), first ? from.at() : -1, first ? from.id() : "", limit - jobs.size())
        .thenCompose(
            page -> {
              Cursor at = last;
              for (DeadJob d : page) {
                jobs.add(queue.info(d.id(), JobState.DEAD, d.record(), 0, d.diedAtMs()));
                at = new Cursor(p, d.diedAtMs(), d.id());
              }
              return page(parts, p + 1, from, limit, jobs, at);
            });
  }

  CompletableFuture<Void> requeue(String id) {
    Names.id(id);
    return queue
        .topology
        .snapshotAsync()
        .thenCompose(s -> store.deadRequeue(s.partitionOf(id), id))
        .thenAccept(
            status -> {
              if (status == Status.NOT_FOUND) {
                throw new JobNotFoundException(queue.name(), id);
              }
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
    return queue.topology.snapshotAsync().thenCompose(s -> chunks(call, s.partitions(), 0, 0));
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
    return queue.stats().thenApply(QueueStats::dead);
  }
}
