package dev.hourglass.internal;

import dev.hourglass.internal.store.BlockingConnection;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.Store;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one wake-up wait of a queue in this client, for all its consumers here: the claim loops of
 * workers (each on one partition) and long polls (on any partition). While anyone waits on a
 * partition, one watcher thread blocks on its wake list (BLPOP on a connection of its own, {@value
 * #BLOCK_SECONDS} s at a time). A token it takes wakes every long poll waiting on the partition and
 * one claim loop, the one that has waited longest, as a BLPOP of its own would have: a claim that
 * leaves ready jobs behind pushes another token for the next. A token that arrives when nobody
 * waits any more is pushed back for other consumers.
 *
 * <p>Each partition counts the tokens taken, and the queue counts them all. A consumer reads the
 * count before it claims and parks its wait from that count: a token taken between its claim and
 * its parking wakes it at once, so no wake-up falls into that gap.
 */
final class WakeWatch {
  private static final Logger log = LoggerFactory.getLogger(WakeWatch.class);
  private static final int BLOCK_SECONDS = 10;
  private static final Duration BLOCK = Duration.ofSeconds(BLOCK_SECONDS);
  private static final long FAILURE_PAUSE_MS = 200;

  /** A wait: made, then parked with {@link #park}; cancel it when it is no longer wanted. */
  static final class Wait {
    private final List<Partition> parts;
    private final List<String> keys; // the parts' channels: what the watch keys partitions by
    private final boolean anyPartition; // a long poll's; else a claim loop's, on one partition
    private final Runnable onWake;

    private Wait(List<Partition> parts, boolean anyPartition, Runnable onWake) {
      this.parts = parts;
      this.keys = parts.stream().map(Partition::channel).toList();
      this.anyPartition = anyPartition;
      this.onWake = onWake;
    }
  }

  private final String queue;
  private final Store store;
  private final Object lock = new Object();
  // Keyed by the partition's channel, which names its keys: a queue deleted and made again has new
  // Partition objects for the same keys.
  private final Map<String, Long> generations = new HashMap<>(); // guarded by lock
  private final Map<String, Integer> waiting = new HashMap<>(); // parked waits per partition, ditto
  private final Set<Wait> waits = new LinkedHashSet<>(); // in parking order; guarded by lock
  private final Map<String, Watcher> watchers = new HashMap<>(); // guarded by lock
  private long total; // guarded by lock
  private boolean closed; // guarded by lock

  WakeWatch(String queue, Store store) {
    this.queue = queue;
    this.store = store;
  }

  /** Tokens taken on every partition so far: what a long poll parks from. */
  long generation() {
    synchronized (lock) {
      return total;
    }
  }

  /** Tokens taken on {@code part} so far: what its claim loop parks from. */
  long generation(Partition part) {
    synchronized (lock) {
      return generations.getOrDefault(part.channel(), 0L);
    }
  }

  /**
   * A claim loop's wait on {@code part}: {@code onWake} runs once, when a token is taken for it or
   * the wait on the wake list fails (the connection was lost, Redis went away: the loop then
   * claims, and finds out).
   */
  Wait on(Partition part, Runnable onWake) {
    return new Wait(List.of(part), false, onWake);
  }

  /**
   * A long poll's wait: {@code onWake} runs once, when a token of any of {@code parts} is taken.
   */
  Wait onAny(List<Partition> parts, Runnable onWake) {
    return new Wait(List.copyOf(parts), true, onWake);
  }

  /**
   * Parks {@code w} from the count {@code seen} ({@link #generation()} for a long poll's, {@link
   * #generation(Partition)} for a claim loop's): when a token was taken since, its {@code onWake}
   * runs at once on this thread; else later on a watcher's thread, where it must not block. False
   * after {@link #close}: the wait will never fire.
   */
  boolean park(Wait w, long seen) {
    synchronized (lock) {
      if (closed) {
        return false;
      }
      long now = w.anyPartition ? total : generations.getOrDefault(w.keys.get(0), 0L);
      if (now == seen) {
        waits.add(w);
        for (int i = 0; i < w.parts.size(); i++) {
          Partition p = w.parts.get(i);
          waiting.merge(w.keys.get(i), 1, Integer::sum);
          watchers.computeIfAbsent(w.keys.get(i), key -> new Watcher(p, key));
        }
        lock.notifyAll();
        return true;
      }
    }
    run(w);
    return true;
  }

  /**
   * Ends a wait: true when it was parked and had not fired (false when it had, or was never parked,
   * or {@code w} is null), so that it never will.
   */
  boolean cancel(Wait w) {
    if (w == null) {
      return false;
    }
    synchronized (lock) {
      return unpark(w);
    }
  }

  private boolean unpark(Wait w) {
    if (!waits.remove(w)) {
      return false;
    }
    w.keys.forEach(key -> waiting.merge(key, -1, Integer::sum));
    return true;
  }

  /**
   * A token of the partition of {@code key} was taken: wakes the long polls waiting on it and the
   * claim loop that has waited longest; false when nobody waited. Or ({@code failed}) the wait for
   * one failed: wakes every claim loop waiting on it.
   */
  private boolean woken(String key, boolean failed) {
    List<Wait> fired = new ArrayList<>();
    synchronized (lock) {
      if (!failed) {
        generations.merge(key, 1L, Long::sum);
        total++;
      }
      boolean loopWoken = false;
      for (Wait w : waits) {
        if (!w.keys.contains(key)) { // by key: Partition objects are made again with the settings
          continue;
        }
        if (w.anyPartition ? !failed : failed || !loopWoken) {
          fired.add(w);
          loopWoken |= !w.anyPartition;
        }
      }
      fired.forEach(this::unpark);
    }
    fired.forEach(WakeWatch::run);
    return !fired.isEmpty();
  }

  private static void run(Wait w) {
    try {
      w.onWake.run();
    } catch (RuntimeException e) {
      log.warn("a wake-up's follow-up failed", e); // one waiter's; the others are woken still
    }
  }

  /** Stops the watchers; waits left never fire, and none parks from now on. */
  void close() {
    List<Watcher> stopping;
    synchronized (lock) {
      closed = true;
      waits.clear();
      waiting.clear();
      stopping = List.copyOf(watchers.values());
      lock.notifyAll();
    }
    stopping.forEach(Watcher::stop);
  }

  /** Blocks on one partition's wake list while anyone waits on it; sleeps on the monitor else. */
  private final class Watcher implements Runnable {
    private final Partition part;
    private final String key;
    private final Thread thread;
    private final BlockingConnection connection = store.blockingConnection(BLOCK);

    Watcher(Partition part, String key) {
      this.part = part;
      this.key = key;
      this.thread = new Thread(this, "hourglass-wake-" + queue + "." + part.index());
      thread.setDaemon(true);
      thread.start();
    }

    @Override
    public void run() {
      try {
        while (awaitWaits()) {
          try {
            byte[] token = connection.awaitWake(part, BLOCK);
            if (token != null && !woken(key, false)) {
              connection.returnWake(part, token);
            }
          } catch (RuntimeException e) { // HourglassException from Redis, or anything else
            if (!isClosed()) {
              log.debug("wake-up wait on {} ended early: {}", queue, e.toString());
              woken(key, true);
              connection.drop();
              Thread.sleep(FAILURE_PAUSE_MS); // a pause before the next try, not a wait for state
            }
          }
        }
      } catch (InterruptedException e) {
        // close() interrupts
      } finally {
        connection.close();
      }
    }

    private boolean awaitWaits() throws InterruptedException {
      synchronized (lock) {
        while (!closed && waiting.getOrDefault(key, 0) <= 0) {
          lock.wait();
        }
        return !closed;
      }
    }

    void stop() {
      connection.close();
      thread.interrupt();
    }
  }

  private boolean isClosed() {
    synchronized (lock) {
      return closed;
    }
  }
}
