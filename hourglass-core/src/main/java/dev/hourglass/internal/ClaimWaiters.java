package dev.hourglass.internal;

import dev.hourglass.Delivery;
import dev.hourglass.HourglassException;
import dev.hourglass.internal.store.BlockingConnection;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.Store;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Long-poll claims on one queue in this client. A caller that finds nothing ready waits here, not
 * on a connection or thread of its own. While anyone waits, one watcher thread per partition blocks
 * on the partition's wake list (BLPOP on a dedicated connection, 2 s at a time); each token wakes
 * every waiter to claim again. A waiter that gets nothing by its deadline completes with an empty
 * list. A token that arrives when nobody waits any more is pushed back for other consumers.
 *
 * <p>A generation counter closes the gap between a waiter's empty claim and its parking: a token
 * that arrived in between makes the waiter claim again at once instead of sleeping through it.
 *
 * <p>A waiter whose future completes by any other way (its caller cancelled it, or the client
 * closed) is forgotten at once: it takes no more wake tokens and leases no more jobs.
 */
final class ClaimWaiters {
  private static final Logger log = LoggerFactory.getLogger(ClaimWaiters.class);
  private static final Duration BLOCK = Duration.ofSeconds(2);

  private final QueueTopology queue;
  private final Claims claims;
  private final Settlements settlements;
  private final Store store;
  private final Executor callbacks;
  private final ScheduledExecutorService timer;
  private final Object lock = new Object();
  private final List<Waiter> waiting = new ArrayList<>();
  // Every waiter whose future is not complete yet, parked or claiming: close() ends them all.
  private final Set<Waiter> live = new HashSet<>();
  private final List<Watcher> watchers = new ArrayList<>();
  private long generation;
  private boolean closed;
  private volatile boolean watchersStarted;

  ClaimWaiters(
      QueueTopology queue,
      Claims claims,
      Settlements settlements,
      Store store,
      Executor callbacks,
      ScheduledExecutorService timer) {
    this.queue = queue;
    this.claims = claims;
    this.settlements = settlements;
    this.store = store;
    this.callbacks = callbacks;
    this.timer = timer;
  }

  /** One long-poll claim; see {@link dev.hourglass.Queue#claimAsync(int, Duration, Duration)}. */
  CompletableFuture<List<Delivery<byte[]>>> claim(int max, Duration visibility, Duration wait) {
    startWatchers();
    Waiter w = new Waiter(max, visibility, System.nanoTime() + wait.toNanos());
    synchronized (lock) {
      if (closed) {
        return CompletableFuture.completedFuture(List.of());
      }
      live.add(w);
    }
    w.result.whenComplete((got, error) -> forget(w));
    attempt(w);
    return w.result;
  }

  /** The waiter's future completed (delivered, expired, cancelled or closed): stop waiting. */
  private void forget(Waiter w) {
    synchronized (lock) {
      live.remove(w);
      waiting.remove(w);
    }
  }

  private void attempt(Waiter w) {
    long seen;
    synchronized (lock) {
      if (w.result.isDone()) {
        return; // cancelled meanwhile: claiming for it would only lease jobs to hand back
      }
      seen = generation;
    }
    claims
        .any(w.max, w.visibility)
        .whenCompleteAsync(
            (got, error) -> {
              if (error != null) {
                w.result.completeExceptionally(error);
              } else if (!got.isEmpty() || w.remainingNanos() <= 0) {
                deliver(w, got);
              } else {
                park(w, seen);
              }
            },
            callbacks);
  }

  /** Completes the waiter; jobs leased for a caller that gave up meanwhile go straight back. */
  private void deliver(Waiter w, List<Delivery<byte[]>> got) {
    if (!w.result.complete(got)) {
      settlements.handBack(got);
    }
  }

  private void park(Waiter w, long seen) {
    boolean claimAgain;
    synchronized (lock) {
      if (closed || w.result.isDone()) {
        w.result.complete(List.of());
        return;
      }
      claimAgain = generation != seen;
      if (!claimAgain) {
        waiting.add(w);
        lock.notifyAll();
      }
    }
    if (claimAgain) {
      callbacks.execute(() -> attempt(w));
    } else if (!w.timerSet) {
      w.timerSet = true;
      timer.schedule(() -> expire(w), w.remainingNanos(), TimeUnit.NANOSECONDS);
    }
  }

  /**
   * The deadline passed. A waiter that is claiming right now is left alone: its claim sees the
   * deadline and completes it.
   */
  private void expire(Waiter w) {
    synchronized (lock) {
      if (!waiting.remove(w)) {
        return;
      }
    }
    w.result.complete(List.of());
  }

  /** A wake token arrived: every waiter claims again. False when nobody was waiting. */
  private boolean wakeAll() {
    List<Waiter> woken;
    synchronized (lock) {
      generation++;
      woken = new ArrayList<>(waiting);
      waiting.clear();
    }
    for (Waiter w : woken) {
      callbacks.execute(() -> attempt(w));
    }
    return !woken.isEmpty();
  }

  /** Starts the watchers on first use; they sleep on the monitor while nobody waits. */
  private void startWatchers() {
    if (watchersStarted) {
      return;
    }
    List<Partition> parts = queue.snapshot().partitions(); // may read Redis: unlocked
    synchronized (lock) {
      if (watchersStarted || closed) {
        return;
      }
      for (Partition part : parts) {
        Watcher watcher = new Watcher(part);
        watchers.add(watcher);
        watcher.thread.start();
      }
      watchersStarted = true;
    }
  }

  /**
   * Ends every wait, parked or claiming (callers get an empty list), and stops the watchers. A
   * claim still in flight hands its jobs back when it lands.
   */
  void close() {
    List<Waiter> left;
    synchronized (lock) {
      closed = true;
      left = new ArrayList<>(live);
      live.clear();
      waiting.clear();
      lock.notifyAll();
    }
    left.forEach(w -> w.result.complete(List.of()));
    List<Watcher> stopping;
    synchronized (lock) {
      stopping = List.copyOf(watchers);
    }
    stopping.forEach(Watcher::stop);
  }

  private static final class Waiter {
    final CompletableFuture<List<Delivery<byte[]>>> result = new CompletableFuture<>();
    final int max;
    final Duration visibility;
    final long deadlineNanos;
    volatile boolean timerSet;

    Waiter(int max, Duration visibility, long deadlineNanos) {
      this.max = max;
      this.visibility = visibility;
      this.deadlineNanos = deadlineNanos;
    }

    long remainingNanos() {
      return deadlineNanos - System.nanoTime();
    }
  }

  /** Blocks on one partition's wake list while anyone waits; sleeps on the monitor otherwise. */
  private final class Watcher implements Runnable {
    private final Partition part;
    private final Thread thread;
    private final BlockingConnection connection = store.blockingConnection(BLOCK);

    Watcher(Partition part) {
      this.part = part;
      this.thread = new Thread(this, "hourglass-longpoll-" + queue.name() + "." + part.index());
      thread.setDaemon(true);
    }

    @Override
    public void run() {
      try {
        while (awaitWaiters()) {
          try {
            byte[] token = connection.awaitWake(part, BLOCK);
            if (token != null && !wakeAll()) {
              connection.returnWake(part, token);
            }
          } catch (HourglassException e) {
            if (!isClosed()) {
              log.debug("long-poll wait on {} ended early: {}", queue.name(), e.getMessage());
              connection.drop();
              Thread.sleep(200);
            }
          }
        }
      } catch (InterruptedException e) {
        // close() interrupts
      } finally {
        connection.close();
      }
    }

    private boolean awaitWaiters() throws InterruptedException {
      synchronized (lock) {
        while (!closed && waiting.isEmpty()) {
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
