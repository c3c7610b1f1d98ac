package dev.hourglass.internal;

import dev.hourglass.internal.QueueTopology.Snapshot;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.ScheduleCalls;
import java.util.concurrent.CompletableFuture;

/**
 * The partition of a job by id. A job lives in the partition its id hashes to, except an occurrence
 * of a schedule, {@code <schedule id>:<ms>}, which lives in its schedule's partition (the script
 * that enqueues it runs there: includes/schedule.lua). On a queue of several partitions an id of
 * that shape whose two partitions differ is looked up in the schedule's first (one HEXISTS), and in
 * its own when not found there.
 */
final class JobLocator {
  private final ScheduleCalls calls;

  JobLocator(ScheduleCalls calls) {
    this.calls = calls;
  }

  CompletableFuture<Partition> locate(Snapshot s, String id) {
    Partition known = withoutLookup(s, id);
    if (known != null) {
      return CompletableFuture.completedFuture(known);
    }
    Partition own = s.partitionOf(id);
    Partition scheduled = scheduleOf(s, id);
    return calls.holds(scheduled, id).thenApply(held -> held ? scheduled : own);
  }

  /** The job's partition when no lookup is needed to tell it (always on one partition), or null. */
  Partition withoutLookup(Snapshot s, String id) {
    Partition own = s.partitionOf(id);
    Partition scheduled = scheduleOf(s, id);
    return scheduled == null || scheduled == own ? own : null;
  }

  /** The partition of the schedule an id of the shape of an occurrence's names, or null. */
  private static Partition scheduleOf(Snapshot s, String id) {
    int colon = id.lastIndexOf(':');
    if (s.partitions().size() == 1 || colon <= 0 || colon == id.length() - 1) {
      return null;
    }
    for (int i = colon + 1; i < id.length(); i++) {
      if (id.charAt(i) < '0' || id.charAt(i) > '9') {
        return null;
      }
    }
    String schedule = id.substring(0, colon);
    return RedisSchedules.ID.matcher(schedule).matches() ? s.partitionOf(schedule) : null;
  }
}
