package dev.hourglass.internal;

import dev.hourglass.HourglassException;
import dev.hourglass.QueueSettings;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The promoter loop of one partition: wakes consumers for due jobs, brings expired leases back,
 * loads time slots ahead of time.
 *
 * <p>It sleeps until the earliest of: the next due time the promote script reported, a wake-up from
 * an enqueue that made an earlier due time (pub/sub, see {@link Promoters}), and the safety sweep
 * ({@value #SAFETY_SWEEP_MS} ms). When another process holds the partition's promoter lock, it
 * sleeps until that lock could lapse, so a crashed leader costs at most about {@value #LOCK_MS} ms.
 * The leader renews the lock when half of it is spent (every other idle pass), so an idle follower
 * costs one read-only call per renewal, about every 2 s.
 */
final class Promoter implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(Promoter.class);
  static final long SAFETY_SWEEP_MS = 1000;
  // Renewed when half spent: with 1 s sweeps that is every other pass, so an idle leader writes
  // every 2 s.
  static final long LOCK_MS = 3000;
  private static final int BUDGET = 1000;
  private static final long MAX_FAILURE_BACKOFF_MS = 1000;

  private final HourglassClient client;
  private final RedisQueue queue;
  private final PartitionRef part;
  private final String owner;
  private final Thread thread;
  private final Object signal = new Object();
  private volatile boolean running = true;
  private volatile boolean leader;
  private List<Long> upcomingSlots = List.of();
  // Guarded by signal: the server time this loop plans to wake at, and whether it was woken early.
  private long plannedWakeMs = Long.MAX_VALUE;
  private long hintedDueMs = Long.MAX_VALUE;
  private boolean woken;

  Promoter(HourglassClient client, RedisQueue queue, PartitionRef part, String owner) {
    this.client = client;
    this.queue = queue;
    this.part = part;
    this.owner = owner;
    this.thread = new Thread(this, "hourglass-promoter-" + queue.name() + "." + part.index);
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  String channel() {
    return part.channel();
  }

  /**
   * An enqueue made {@code dueMs} the earliest due time of the partition: wake up if that is
   * sooner.
   */
  void hint(long dueMs) {
    synchronized (signal) {
      hintedDueMs = Math.min(hintedDueMs, dueMs);
      if (leader && dueMs < plannedWakeMs) {
        woken = true;
        signal.notifyAll();
      }
    }
  }

  @Override
  public void run() {
    long failureBackoff = 50;
    while (running) {
      try {
        client.promoters.checkSubscription();
        synchronized (signal) {
          hintedDueMs = Long.MAX_VALUE; // this pass sees every enqueue announced so far
        }
        PromoteReply r = promoteOnce();
        failureBackoff = 50;
        leader = r.leader();
        if (r.leader() && r.more()) {
          continue;
        }
        long wakeAt = r.nextWakeMs() < 0 ? r.nowMs() + SAFETY_SWEEP_MS : r.nextWakeMs();
        if (r.leader()) {
          wakeAt = Math.min(wakeAt, r.nowMs() + SAFETY_SWEEP_MS);
        }
        sleepUntil(wakeAt, r.nowMs());
      } catch (HourglassException e) {
        if (!running) {
          return;
        }
        log.warn(
            "promoter of {} partition {} failed, retrying in {} ms: {}",
            queue.name(),
            part.index,
            failureBackoff,
            e.getMessage());
        sleepFor(failureBackoff);
        failureBackoff = Math.min(failureBackoff * 2, MAX_FAILURE_BACKOFF_MS);
      } catch (RuntimeException e) {
        log.error("promoter of {} partition {} hit a bug; retrying", queue.name(), part.index, e);
        sleepFor(MAX_FAILURE_BACKOFF_MS);
      }
    }
  }

  record PromoteReply(boolean leader, long moved, boolean more, long nextWakeMs, long nowMs) {}

  PromoteReply promoteOnce() {
    QueueSettings s = queue.layout().settings();
    List<Long> slots = upcomingSlots;
    Args keys = part.keysWithAllPools();
    for (long start : slots) {
      keys.add(part.keys.slot(start));
    }
    Args argv =
        part.argv()
            .add(owner)
            .add(LOCK_MS)
            .add(queue.lookaheadMs())
            .add(BUDGET)
            .add(s.deadMaxAge().toMillis())
            .add(s.deadMaxCount())
            .add(slots.size());
    for (long start : slots) {
      argv.add(start);
    }
    List<Object> reply = client.call(Script.PROMOTE, keys, argv);
    long now = Reply.num(reply.get(4));
    client.serverClock.observe(now);
    boolean isLeader = Reply.num(reply.get(0)) == 1;
    boolean fullPass = Reply.num(reply.get(5)) == 1;
    if (fullPass) {
      List<Long> next = new ArrayList<>();
      for (int i = 6; i < reply.size(); i++) {
        next.add(Reply.num(reply.get(i)));
      }
      upcomingSlots = List.copyOf(next);
    }
    return new PromoteReply(
        isLeader,
        Reply.num(reply.get(1)),
        Reply.num(reply.get(2)) == 1,
        Reply.num(reply.get(3)),
        now);
  }

  private void sleepUntil(long serverWakeMs, long serverNowMs) {
    long deadline = System.nanoTime() + Math.max(0, serverWakeMs - serverNowMs) * 1_000_000L;
    synchronized (signal) {
      plannedWakeMs = serverWakeMs;
      // A hint that arrived during the pass (after its script read the partition) must not be lost.
      woken = leader && hintedDueMs < serverWakeMs;
      try {
        while (running && !woken) {
          long leftNanos = deadline - System.nanoTime();
          if (leftNanos <= 0) {
            break;
          }
          signal.wait(leftNanos / 1_000_000L, (int) (leftNanos % 1_000_000L));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        running = false;
      } finally {
        plannedWakeMs = Long.MAX_VALUE;
      }
    }
  }

  private void sleepFor(long ms) {
    synchronized (signal) {
      try {
        if (running) {
          signal.wait(ms);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        running = false;
      }
    }
  }

  void stop() {
    running = false;
    synchronized (signal) {
      signal.notifyAll();
    }
    try {
      thread.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
