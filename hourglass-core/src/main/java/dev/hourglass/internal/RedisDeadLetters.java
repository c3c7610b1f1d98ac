package dev.hourglass.internal;

import dev.hourglass.DeadLetters;
import dev.hourglass.DeadPage;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobInfo;
import dev.hourglass.JobNotFoundException;
import dev.hourglass.JobState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/** Dead letters of one queue, partition by partition. */
final class RedisDeadLetters implements DeadLetters {
  private static final int CHUNK = 1000;
  private final RedisQueue queue;

  RedisDeadLetters(RedisQueue queue) {
    this.queue = queue;
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
    List<PartitionRef> parts = queue.layout().partitions();
    if (from.partition() < 0 || from.partition() >= parts.size()) {
      throw new InvalidArgumentException("cursor", "is not a cursor from a previous page");
    }
    List<JobInfo> jobs = new ArrayList<>();
    Cursor last = null;
    for (int p = from.partition(); p < parts.size() && jobs.size() < limit; p++) {
      PartitionRef part = parts.get(p);
      boolean first = p == from.partition();
      Args argv =
          part.argv()
              .add(first ? from.at() : -1)
              .add(first ? from.id() : "")
              .add(limit - jobs.size());
      List<Object> reply = queue.client().call(Script.DEAD_LIST, part.keysWithAllPools(), argv);
      for (int i = 0; i + 2 < reply.size(); i += 3) {
        String id = Reply.str(reply.get(i));
        long at = Reply.num(reply.get(i + 2));
        jobs.add(
            queue.info(
                id, JobState.DEAD, RecordCodec.decode(Reply.bytes(reply.get(i + 1))), 0, at));
        last = new Cursor(p, at, id);
      }
    }
    Optional<String> next =
        jobs.size() == limit && last != null ? Optional.of(last.encode()) : Optional.empty();
    return new DeadPage(List.copyOf(jobs), next);
  }

  @Override
  public void requeue(String id) {
    Names.id(id);
    PartitionRef part = queue.layout().partitionOf(id);
    List<Object> reply =
        queue
            .client()
            .call(Script.DEAD_REQUEUE, part.keysWithAllPools(), part.argv().add(id).add(1));
    if (Reply.status(reply) == RedisQueue.STATUS_NOT_FOUND) {
      throw new JobNotFoundException(queue.name(), id);
    }
  }

  @Override
  public long requeueAll() {
    return inChunks(Script.DEAD_REQUEUE, true);
  }

  @Override
  public long purge() {
    return inChunks(Script.DEAD_PURGE, false);
  }

  private long inChunks(Script script, boolean withId) {
    long total = 0;
    for (PartitionRef part : queue.layout().partitions()) {
      while (true) {
        Args argv = part.argv();
        if (withId) {
          argv.add("");
        }
        argv.add(CHUNK);
        long n = Reply.num(queue.client().call(script, part.keysWithAllPools(), argv).get(1));
        total += n;
        if (n < CHUNK) {
          break;
        }
      }
    }
    return total;
  }

  @Override
  public long count() {
    return queue.stats().dead();
  }
}
