package dev.hourglass.internal;

import dev.hourglass.HourglassException;
import dev.hourglass.internal.store.BlockingConnection;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.Store;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one wake-up wait of a queue in this client, for all its consumers here: the claim loops of
 * workers (each on one partition) and long polls (on any partition). While anyone waits on a
 * partition, one watcher thread blocks on its wake list (BLPOP on a connection of its own, {@value
 * #BLOCK_SECONDS} s at a time), and each token it takes wakes every wait on that partition. A token
 * that arrives when nobody waits any more is pushed back for other consumers.
 *
 * <p>Each partition counts the tokens taken (its generation), and the queue counts them all. A
 * consumer reads the count before it claims and waits from that count: a token that arrived between
 * its claim and its wait wakes it at once, so no wake-up falls into that gap.
 */
final class WakeWatch {
  private static final Logger log = LoggerFactory.getLogger(WakeWatch.class);
  // As long as a worker's default idleWait: an idle queue costs Redis one BLPOP per partition per
  // 30 s, however many workers and long polls of it wait in this client.
  private static final int BLOCK_SECONDS = 30;
  private static final Duration BLOCK = Duration.ofSeconds(BLOCK_SECONDS);
  private static final long FAILURE_PAUSE_MS = 200;

  /** A registered wait: cancel it when it is no longer wanted. */
  static final class Wait {
    private final List<Partition> parts;
    private final boolean onFailure;
    private final Runnable onWake;

    private Wait(List<Partition> parts, boolean onFailure, Runnable onWake) {
      this.parts = parts;
      this.onFailure = onFailure;
      this.onWake = onWake;
    }
  }

  private final String queue;
  private final Store store;
  private final Object lock = new Object();
  private final Map<Partition, Long> generations = new HashMap<>(); // guarded by lock
  private final Map<Partition, Integer> waiting = new HashMap<>(); // waits per partition, ditto
  private final Set<Wait> waits = new HashSet<>(); // guarded by lock
  private final Map<Partition, Watcher> watchers = new HashMap<>(); // guarded by lock
  private long total; // guarded by lock
  private boolean closed; // guarded by lock

  WakeWatch(String queue, Store store) {
    this.queue = queue;
    this.store = store;
  }

  /** Tokens taken on every partition so far. */
  long generation() {
    synchronized (lock) {
      return total;
    }
  }

  /** Tokens taken on {@code part} so far. */
  long generation(Partition part) {
    synchronized (lock) {
      return generations.getOrDefault(part, 0L);
    }
  }

  /**
   * Runs {@code onWake} once when a token of {@code part} is taken after the count {@code seen}
   * (from {@link #generation(Partition)}), or the wait on its wake list fails (the connection was
   * lost, Redis went away: a claim loop then claims, and finds out): at once, on this thread, if a
   * token was taken already; else on the watcher's thread, where it must not block. Null after
   * {@link #close}.
   */
  Wait await(Partition part, long seen, Runnable onWake) {
    return register(List.of(part), true, generation(part) != seen, onWake);
  }

  /**
   * As {@link #await(Partition, long, Runnable)}, for a token of any of {@code parts}, from the
   * count of {@link #generation()}; a failed wait does not wake it (a long poll waits on).
   */
  Wait awaitAny(List<Partition> parts, long seen, Runnable onWake) {
    return register(parts, false, generation() != seen, onWake);
  }

  private Wait register(
      List<Partition> parts, boolean onFailure, boolean alreadyWoken, Runnable onWake) {
    Wait w = new Wait(parts, onFailure, onWake);
    synchronized (lock) {
      if (closed) {
        return null;
      }
      if (!alreadyWoken) {
        waits.add(w);
        for (Partition p : parts) {
          waiting.merge(p, 1, Integer::sum);
          watchers.computeIfAbsent(p, Watcher::new);
        }
        lock.notifyAll();
        return w;
      }
    }
    onWake.run();
    return w;
  }

  /**
   * Ends a wait: true when it had not fired (false when it had, or {@code w} is null), so that it
   * never will.
   */
  boolean cancel(Wait w) {
    if (w == null) {
      return false;
    }
    synchronized (lock) {
      if (!waits.remove(w)) {
        return false;
      }
      w.parts.forEach(p -> waiting.merge(p, -1, Integer::sum));
      return true;
    }
  }

  /**
   * A token of {@code part} was taken (or, {@code failed}, the wait for one failed): wakes its
   * waits (those that asked to be woken by a failure); false when there were none.
   */
  private boolean woken(Partition part, boolean failed) {
    List<Wait> fired = new ArrayList<>();
    synchronized (lock) {
      if (!failed) {
        generations.merge(part, 1L, Long::sum);
        total++;
      }
      for (Wait w : waits) {
        if (w.parts.contains(part) && (w.onFailure || !failed)) {
          fired.add(w);
        }
      }
      for (Wait w : fired) {
        waits.remove(w);
        w.parts.forEach(p -> waiting.merge(p, -1, Integer::sum));
      }
    }
    fired.forEach(w -> w.onWake.run());
    return !fired.isEmpty();
  }

  /** Stops the watchers; waits left never fire. */
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
    private final Thread thread;
    private final BlockingConnection connection = store.blockingConnection(BLOCK);

    Watcher(Partition part) {
      this.part = part;
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
            if (token != null && !woken(part, false)) {
              connection.returnWake(part, token);
            }
          } catch (HourglassException e) {
            if (!isClosed()) {
              log.debug("wake-up wait on {} ended early: {}", queue, e.getMessage());
              woken(part, true);
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
        while (!closed && waiting.getOrDefault(part, 0) <= 0) {
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
