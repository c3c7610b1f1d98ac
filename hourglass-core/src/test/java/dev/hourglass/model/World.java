package dev.hourglass.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One state the queue under test may be in: its live jobs, the counters {@code stats()} reports,
 * and the promoter lock of each partition. Immutable, with value equality, so that the {@link
 * Checker} can keep a set of them.
 *
 * <p>The clock work, which the server clock alone makes due (jobs past their ttl leave, lapsed
 * leases come back), happens only in {@link #catchUp}: claim, stats and promoter passes run it,
 * nothing else does.
 */
public record World(Map<String, ModelJob> jobs, Counters counters, Map<Integer, Lock> locks) {

  /** The counters of {@code QueueStats}. */
  public record Counters(
      long enqueued,
      long delivered,
      long acked,
      long retried,
      long killed,
      long expired,
      long cancelled) {
    static final Counters ZERO = new Counters(0, 0, 0, 0, 0, 0, 0);

    Counters plusEnqueued() {
      return new Counters(enqueued + 1, delivered, acked, retried, killed, expired, cancelled);
    }

    Counters plusDelivered() {
      return new Counters(enqueued, delivered + 1, acked, retried, killed, expired, cancelled);
    }

    Counters plusAcked() {
      return new Counters(enqueued, delivered, acked + 1, retried, killed, expired, cancelled);
    }

    Counters plusRetried() {
      return new Counters(enqueued, delivered, acked, retried + 1, killed, expired, cancelled);
    }

    Counters plusKilled() {
      return new Counters(enqueued, delivered, acked, retried, killed + 1, expired, cancelled);
    }

    Counters plusExpired() {
      return new Counters(enqueued, delivered, acked, retried, killed, expired + 1, cancelled);
    }

    Counters plusCancelled() {
      return new Counters(enqueued, delivered, acked, retried, killed, expired, cancelled + 1);
    }
  }

  /**
   * A partition's promoter lock: who holds it and the range its deadline lies in (taken at a server
   * time known only to lie within a call's window).
   */
  public record Lock(String owner, long untilLo, long untilHi) {}

  public World {
    jobs = Collections.unmodifiableMap(new TreeMap<>(jobs));
    locks = Collections.unmodifiableMap(new TreeMap<>(locks));
  }

  public static World empty() {
    return new World(Map.of(), Counters.ZERO, Map.of());
  }

  public ModelJob job(String id) {
    return jobs.get(id);
  }

  World with(ModelJob job) {
    Map<String, ModelJob> next = new TreeMap<>(jobs);
    next.put(job.id(), job);
    return new World(next, counters, locks);
  }

  World without(String id) {
    Map<String, ModelJob> next = new TreeMap<>(jobs);
    next.remove(id);
    return new World(next, counters, locks);
  }

  World with(Counters c) {
    return new World(jobs, c, locks);
  }

  World withLock(int partition, Lock lock) {
    Map<Integer, Lock> next = new TreeMap<>(locks);
    next.put(partition, lock);
    return new World(jobs, counters, next);
  }

  /** The jobs of one partition, in id order. */
  public List<ModelJob> in(int partition) {
    List<ModelJob> out = new ArrayList<>();
    for (ModelJob j : jobs.values()) {
      if (j.partition() == partition) {
        out.add(j);
      }
    }
    return out;
  }

  /** The waiting jobs of a partition due by {@code t}, oldest due first (ties in id order). */
  List<ModelJob> readyIn(int partition, long t) {
    List<ModelJob> out = new ArrayList<>();
    for (ModelJob j : in(partition)) {
      if (j.waiting() && j.due() <= t) {
        out.add(j);
      }
    }
    // Claim order: the highest priority first, then the earliest due, then the id.
    out.sort(
        Comparator.comparingInt((ModelJob j) -> -Choices.priorityOf(j.id()))
            .thenComparingLong(ModelJob::due)
            .thenComparing(ModelJob::id));
    return out;
  }

  /**
   * The server times in a partition at which this world's outcomes can change: every job's due
   * time, lease deadline and ttl, and the promoter lock's deadline range. Between two of them,
   * every call on the partition has the same outcome.
   */
  TreeSet<Long> events(int partition) {
    TreeSet<Long> out = new TreeSet<>();
    for (ModelJob j : in(partition)) {
      out.add(j.due());
      if (j.leased()) {
        out.add(j.leaseUntil());
      }
      if (j.expireAt() > 0) {
        out.add(j.expireAt());
      }
    }
    Lock lock = locks.get(partition);
    if (lock != null) {
      out.add(lock.untilLo());
      out.add(lock.untilHi());
    }
    return out;
  }

  /**
   * The times by {@code t} at which a catch-up in the partition would change something: a ttl that
   * has run out or a lease deadline that has passed.
   */
  TreeSet<Long> clockWorkBy(int partition, long t) {
    TreeSet<Long> out = new TreeSet<>();
    for (ModelJob j : in(partition)) {
      if (j.expireAt() > 0 && j.expireAt() <= t) {
        out.add(j.expireAt());
      }
      if (j.leased() && j.leaseUntil() <= t) {
        out.add(j.leaseUntil());
      }
    }
    return out;
  }

  /** The outcome of a catch-up: the world after it, and what a promoter pass reports of it. */
  record CaughtUp(World world, int leasesBackToReady, int dueInSlotsAtMost) {}

  /**
   * The clock work of one partition at server time {@code t}, as claim, stats and every promoter
   * pass run it first: jobs past their ttl leave (counted expired), then lapsed leases come back,
   * the attempt counted with last error "lease expired", to waiting at their old due time (so
   * ready) or to dead when their attempts are spent; and slot lists that start before {@code t + 1}
   * (claim, stats) or {@code t + lookaheadMs} (promote) are loaded into near.
   *
   * @param diedLo earliest possible time of this catch-up, for jobs it kills; {@code diedHi} the
   *     latest
   * @param lookaheadMs 1 for claim and stats, the slot width for a promoter pass
   */
  CaughtUp catchUp(int partition, long t, long diedLo, long diedHi, long lookaheadMs) {
    World w = this;
    Counters c = counters;
    int backToReady = 0;
    int dueInSlots = 0;
    for (ModelJob j : in(partition)) {
      if (j.expiredAt(t)) {
        w = w.without(j.id());
        c = c.plusExpired();
        continue;
      }
      ModelJob next = j;
      if (j.leased() && j.leaseUntil() <= t) {
        next = j.failed("lease expired");
        if (next.attempts() >= next.maxAttempts()) {
          next = next.diedBetween(Math.max(diedLo, j.leaseUntil()), diedHi);
          c = c.plusKilled();
        } else {
          next = next.waitingUntil(j.due(), false);
          c = c.plusRetried();
          backToReady++;
        }
      }
      if (next.waiting() && next.maybeInSlot() && next.due() < t + lookaheadMs) {
        // Its slot starts at or before its due time, so this catch-up loaded it.
        if (next.due() <= t) {
          dueInSlots++;
        }
        next = next.inNear();
      }
      if (next != j) {
        w = w.with(next);
      }
    }
    return new CaughtUp(w.with(c), backToReady, dueInSlots);
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder();
    s.append(jobs.values()).append(' ').append(counters);
    if (!locks.isEmpty()) {
      s.append(" locks ").append(locks);
    }
    return s.toString();
  }
}
