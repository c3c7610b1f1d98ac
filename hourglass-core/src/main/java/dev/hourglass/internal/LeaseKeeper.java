package dev.hourglass.internal;

import dev.hourglass.Delivery;
import dev.hourglass.JobNotFoundException;
import dev.hourglass.StaleReceiptException;
import dev.hourglass.internal.store.Failures;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the leases of a worker's jobs from the moment they reach the worker (waiting for a thread,
 * then running) until their handler returns: each lease is extended by its visibility whenever half
 * of it is left, so no job's lease lapses while the worker holds it, however long it waits or runs.
 *
 * <p>One timer task is armed for the earliest extension due among all kept jobs, instead of one
 * task per job: most jobs finish long before their first extension, and scheduling and cancelling a
 * task per job took a lock on the timer's queue on every delivery. Keeping and finishing a job is
 * an insert into and a removal from a concurrent set, plus a volatile read. Extensions are sent
 * without waiting for their replies.
 */
final class LeaseKeeper {
  private static final Logger log = LoggerFactory.getLogger(LeaseKeeper.class);

  private final String queue;
  private final Settlements settlements;
  private final ScheduledExecutorService timer;
  private final Set<Kept> kept = ConcurrentHashMap.newKeySet();
  private final Object plan = new Object();
  // When the armed sweep runs (System.nanoTime), Long.MAX_VALUE when none is armed. Written under
  // plan; read without it by keep(), which only needs to know whether it must arm an earlier one.
  private volatile long plannedAtNanos = Long.MAX_VALUE;
  private ScheduledFuture<?> planned; // guarded by plan

  LeaseKeeper(String queue, Settlements settlements, ScheduledExecutorService timer) {
    this.queue = queue;
    this.settlements = settlements;
    this.timer = timer;
  }

  /** One job whose lease is kept. */
  static final class Kept {
    final Delivery<byte[]> job;
    final long periodNanos;
    // Only sweeps touch nextNanos after keep(); sweeps never overlap (one timer thread).
    long nextNanos;
    volatile long leaseUntilMs; // the lease deadline last granted (server clock)
    volatile boolean lost;

    Kept(Delivery<byte[]> job, long periodNanos, long nextNanos) {
      this.job = job;
      this.periodNanos = periodNanos;
      this.nextNanos = nextNanos;
      this.leaseUntilMs = job.leaseUntil().toEpochMilli();
    }

    /** The lease deadline last granted (server clock). */
    long leaseUntilMs() {
      return leaseUntilMs;
    }

    /** Whether an extension found the lease gone: the job came back meanwhile. */
    boolean lost() {
      return lost;
    }
  }

  /** Starts keeping the lease of {@code job}, which has {@code leaseLeftMs} left. */
  Kept keep(Delivery<byte[]> job, long leaseLeftMs) {
    long periodMs = Math.max(1, job.visibility().toMillis() / 2);
    long first =
        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, leaseLeftMs - periodMs));
    Kept k = new Kept(job, TimeUnit.MILLISECONDS.toNanos(periodMs), first);
    kept.add(k);
    // The add happens before this read. A sweep that resets plannedAtNanos after the read iterates
    // after the add, so it sees k; one that reset it before the read makes this arm.
    if (first < plannedAtNanos) {
      arm(first);
    }
    return k;
  }

  /** The job's handler returned (or it was handed back): no more extensions. */
  void finish(Kept k) {
    kept.remove(k);
  }

  private void arm(long atNanos) {
    synchronized (plan) {
      if (atNanos >= plannedAtNanos) {
        return;
      }
      if (planned != null) {
        planned.cancel(false);
      }
      try {
        planned =
            timer.schedule(
                this::sweep, Math.max(0, atNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        plannedAtNanos = atNanos;
      } catch (RejectedExecutionException closing) {
        planned = null; // the worker is closing: its leases are no longer kept
      }
    }
  }

  /** Extends every lease that is due, then arms the sweep for the next one. Timer thread. */
  private void sweep() {
    synchronized (plan) {
      planned = null;
      plannedAtNanos = Long.MAX_VALUE;
    }
    long next = Long.MAX_VALUE;
    for (Kept k : kept) {
      if (!k.lost && k.nextNanos <= System.nanoTime()) {
        extend(k);
        k.nextNanos += k.periodNanos;
      }
      if (!k.lost) {
        next = Math.min(next, k.nextNanos);
      }
    }
    if (next != Long.MAX_VALUE) {
      arm(next);
    }
  }

  private void extend(Kept k) {
    Delivery<byte[]> job = k.job;
    settlements
        .extend(job.id(), job.receipt(), job.visibility().toMillis())
        .whenComplete(
            (until, error) -> {
              if (error == null) {
                k.leaseUntilMs = until.toEpochMilli();
                return;
              }
              var e = Failures.translate(error);
              if (e instanceof StaleReceiptException || e instanceof JobNotFoundException) {
                log.warn("lease of job {} in {} was lost while held", job.id(), queue);
                k.lost = true; // no further extensions of this delivery
              } else {
                log.warn(
                    "could not extend the lease of job {} in {}: {}",
                    job.id(),
                    queue,
                    e.getMessage());
              }
            });
  }
}
