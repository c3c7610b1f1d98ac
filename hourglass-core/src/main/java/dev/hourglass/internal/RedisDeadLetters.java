package dev.hourglass.internal;

import dev.hourglass.DeadLetters;
import dev.hourglass.DeadPage;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobInfo;
import dev.hourglass.JobNotFoundException;
import dev.hourglass.JobState;
import dev.hourglass.internal.store.Failures;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.Replies.DeadJob;
import dev.hourglass.internal.store.Status;
import dev.hourglass.internal.store.Store;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/** Dead letters of one queue, partition by partition. */
final class RedisDeadLetters implements DeadLetters {
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

  @Override
  public DeadPage list(String cursor, int limit) {
    if (limit < 1 || limit > 1000) {
      throw new InvalidArgumentException("limit", "must be between 1 and 1000, was " + limit);
    }
    Cursor from =
        cursor == null || cursor.isEmpty() ? new Cursor(0, -1, "") : Cursor.decode(cursor);
    List<Partition> parts = queue.topology.snapshot().partitions();
    if (from.partition() < 0 || from.partition() >= parts.size()) {
      throw new InvalidArgumentException("cursor", "is not a cursor from a previous page");
    }
    List<JobInfo> jobs = new ArrayList<>();
    Cursor last = null;
    for (int p = from.partition(); p < parts.size() && jobs.size() < limit; p++) {
      boolean first = p == from.partition();
      List<DeadJob> page =
          Failures.await(
              store.deadList(
                  parts.get(p),
                  first ? from.at() : -1,
                  first ? from.id() : "",
                  limit - jobs.size()));
      for (DeadJob d : page) {
        jobs.add(queue.info(d.id(), JobState.DEAD, d.record(), 0, d.diedAtMs()));
        last = new Cursor(p, d.diedAtMs(), d.id());
      }
    }
    Optional<String> next =
        jobs.size() == limit && last != null ? Optional.of(last.encode()) : Optional.empty();
    return new DeadPage(List.copyOf(jobs), next);
  }

  @Override
  public void requeue(String id) {
    Names.id(id);
    Partition part = queue.topology.snapshot().partitionOf(id);
    if (Failures.await(store.deadRequeue(part, id)) == Status.NOT_FOUND) {
      throw new JobNotFoundException(queue.name(), id);
    }
  }

  @Override
  public long requeueAll() {
    return inChunks(store::deadRequeueOldest);
  }

  @Override
  public long purge() {
    return inChunks(store::deadPurge);
  }

  /** A call on up to a chunk of a partition's oldest dead jobs, answering how many it took. */
  private interface ChunkCall {
    java.util.concurrent.CompletableFuture<Long> run(Partition part, int limit);
  }

  private long inChunks(ChunkCall call) {
    long total = 0;
    for (Partition part : queue.topology.snapshot().partitions()) {
      long n;
      do {
        n = Failures.await(call.run(part, CHUNK));
        total += n;
      } while (n == CHUNK);
    }
    return total;
  }

  @Override
  public long count() {
    return queue.stats().dead();
  }
}
