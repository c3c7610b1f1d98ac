package dev.hourglass.internal;

import dev.hourglass.Delivery;
import dev.hourglass.internal.store.Partition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Long-poll claims on one queue in this client. A caller that finds nothing ready waits here, not
 * on a connection or thread of its own: on the queue's {@link WakeWatch}, for a wake token of any
 * partition, then claims again. A waiter that gets nothing by its deadline completes with an empty
 * list. When the queue's flow-control limits held ready jobs back, the waiter also claims again the
 * moment they next let a job through (as the claim said), not before.
 *
 * <p>A waiter whose future completes by any other way (its caller cancelled it, or the client
 * closed) is forgotten at once: it takes no more wake tokens and leases no more jobs.
 */
final class ClaimWaiters {
  private final QueueTopology queue;
  private final Claims claims;
  private final Settlements settlements;
  private final WakeWatch wakes;
  private final Executor callbacks;
  private final ScheduledExecutorService timer;
  private final Object lock = new Object();
  // Every waiter whose future is not complete yet, parked or claiming: close() ends them all.
  private final Set<Waiter> live = new HashSet<>();
  private boolean closed;

  ClaimWaiters(
      QueueTopology queue,
      Claims claims,
      Settlements settlements,
      WakeWatch wakes,
      Executor callbacks,
      ScheduledExecutorService timer) {
    this.queue = queue;
    this.claims = claims;
    this.settlements = settlements;
    this.wakes = wakes;
    this.callbacks = callbacks;
    this.timer = timer;
  }

  /** One long-poll claim; see {@link dev.hourglass.Queue#claimAsync(int, Duration, Duration)}. */
  CompletableFuture<List<Delivery<byte[]>>> claim(int max, Duration visibility, Duration wait) {
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
    }
    wakes.cancel(w.parked);
  }

  private void attempt(Waiter w) {
    if (w.result.isDone()) {
      return; // cancelled meanwhile: claiming for it would only lease jobs to hand back
    }
    long seen = wakes.generation(); // before the claim: a token after it wakes the wait below
    claims
        .anyHeld(w.max, w.visibility)
        .whenCompleteAsync(
            (got, error) -> {
              if (error != null) {
                w.result.completeExceptionally(error);
              } else if (!got.jobs().isEmpty() || w.remainingNanos() <= 0) {
                deliver(w, got.jobs());
              } else {
                park(w, seen, got.heldForMs());
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

  /**
   * Waits for a wake token (or one that came since {@code seen}), or {@code heldForMs} when the
   * limits held jobs back (0: they did not), then claims again.
   */
  private void park(Waiter w, long seen, long heldForMs) {
    synchronized (lock) {
      if (closed) {
        w.result.complete(List.of());
        return;
      }
    }
    // The claim that came back empty has just read the settings: the cached copy is fresh.
    List<Partition> parts = queue.cached().partitions();
    WakeWatch.Wait wait = wakes.onAny(parts, () -> callbacks.execute(() -> attempt(w)));
    w.parked = wait; // before it can fire: a wake-up's claim may park this waiter again
    if (!wakes.park(wait, seen)) {
      w.result.complete(List.of()); // the client is closing
    } else if (w.result.isDone()) {
      wakes.cancel(wait); // completed meanwhile (cancelled, closed): forget() may have missed it
    } else if (w.remainingNanos() <= 0) {
      expire(w); // the deadline timer ran while this waiter was claiming
    } else {
      if (!w.timerSet) {
        w.timerSet = true;
        timer.schedule(() -> expire(w), w.remainingNanos(), TimeUnit.NANOSECONDS);
      }
      if (heldForMs > 0 && heldForMs * 1_000_000L < w.remainingNanos()) {
        timer.schedule(() -> released(w, wait), heldForMs, TimeUnit.MILLISECONDS);
      }
    }
  }

  /** The limits let a job through again: claim, unless the wait fired or ended meanwhile. */
  private void released(Waiter w, WakeWatch.Wait wait) {
    if (wakes.cancel(wait)) {
      callbacks.execute(() -> attempt(w));
    }
  }

  /**
   * The deadline passed. A waiter that is claiming right now is left alone: its claim sees the
   * deadline and completes it.
   */
  private void expire(Waiter w) {
    if (wakes.cancel(w.parked)) {
      w.result.complete(List.of());
    }
  }

  /**
   * Ends every wait, parked or claiming (callers get an empty list). A claim still in flight hands
   * its jobs back when it lands.
   */
  void close() {
    List<Waiter> left;
    synchronized (lock) {
      closed = true;
      left = new ArrayList<>(live);
      live.clear();
    }
    left.forEach(w -> w.result.complete(List.of()));
  }

  private static final class Waiter {
    final CompletableFuture<List<Delivery<byte[]>>> result = new CompletableFuture<>();
    final int max;
    final Duration visibility;
    final long deadlineNanos;
    volatile WakeWatch.Wait parked; // the wait it is parked in, or the last one
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
}
