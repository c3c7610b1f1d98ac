package dev.hourglass.internal;

import dev.hourglass.Delivery;
import dev.hourglass.HourglassException;
import dev.hourglass.JobNotFoundException;
import dev.hourglass.StaleReceiptException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Extends the leases of a worker's running handlers: every half visibility, the first time when
 * half a visibility of the lease is left (counted from the claim, so a prefetched job that waited
 * is extended sooner).
 *
 * <p>One timer task is armed for the earliest extension due among all running jobs, instead of one
 * task per job: most handlers finish long before their first extension, and scheduling and
 * cancelling a task per job took a lock on the timer's queue on every delivery (it showed in the
 * e2e profile at 50k jobs/s). Starting and finishing a job is an insert into and a removal from a
 * concurrent set, plus a volatile read.
 */
final class LeaseKeeper {
  private static final Logger log = LoggerFactory.getLogger(LeaseKeeper.class);

  private final RedisQueue queue;
  private final ScheduledExecutorService timer;
  private final Set<Running> running = ConcurrentHashMap.newKeySet();
  private final Object plan = new Object();
  // When the armed sweep runs (System.nanoTime), Long.MAX_VALUE when none is armed. Written under
  // plan; read without it by start(), which only needs to know whether it must arm an earlier one.
  private volatile long plannedAtNanos = Long.MAX_VALUE;
  private ScheduledFuture<?> planned; // guarded by plan

  LeaseKeeper(RedisQueue queue, ScheduledExecutorService timer) {
    this.queue = queue;
    this.timer = timer;
  }

  /** One running job whose lease is kept. */
  static final class Running {
    final Delivery job;
    final long periodNanos;
    // Set by start() before the job is added to the set; after that only sweeps touch these.
    long nextNanos;
    boolean lost;

    Running(Delivery job, long periodNanos, long nextNanos) {
      this.job = job;
      this.periodNanos = periodNanos;
      this.nextNanos = nextNanos;
    }
  }

  /** A handler starts on {@code job}, whose lease has {@code leaseLeftMs} left. */
  Running start(Delivery job, long leaseLeftMs) {
    long periodMs = Math.max(1, job.visibility().toMillis() / 2);
    long first =
        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, leaseLeftMs - periodMs));
    Running r = new Running(job, TimeUnit.MILLISECONDS.toNanos(periodMs), first);
    running.add(r);
    // The add happens before this read. A sweep that resets plannedAtNanos after the read iterates
    // after the add, so it sees r; one that reset it before the read makes this arm.
    if (first < plannedAtNanos) {
      arm(first);
    }
    return r;
  }

  /** The handler of {@code r} returned: no more extensions. */
  void finish(Running r) {
    running.remove(r);
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

  /**
   * Extends every lease that is due, then arms the sweep for the next one. Runs on the worker's
   * timer, which has one thread: sweeps never overlap, so only they touch {@code nextNanos} and
   * {@code lost} after {@link #start}. The lock is not held while extending (a Redis call), so
   * handlers starting meanwhile are not held up.
   */
  private void sweep() {
    synchronized (plan) {
      planned = null;
      plannedAtNanos = Long.MAX_VALUE;
    }
    long next = Long.MAX_VALUE;
    for (Running r : running) {
      if (!r.lost && r.nextNanos <= System.nanoTime()) {
        extend(r);
        r.nextNanos += r.periodNanos;
      }
      if (!r.lost) {
        next = Math.min(next, r.nextNanos);
      }
    }
    if (next != Long.MAX_VALUE) {
      arm(next);
    }
  }

  private void extend(Running r) {
    Delivery job = r.job;
    try {
      queue.extend(job.id(), job.receipt(), job.visibility());
    } catch (StaleReceiptException | JobNotFoundException e) {
      log.warn("lease of job {} in {} was lost while its handler ran", job.id(), queue.name());
      r.lost = true; // no further extensions of this delivery
    } catch (HourglassException e) {
      log.warn(
          "could not extend the lease of job {} in {}: {}", job.id(), queue.name(), e.getMessage());
    } catch (RuntimeException e) {
      // Not expected; logged, and the sweep goes on so that the other leases are still kept.
      log.error("extending the lease of job {} in {} failed", job.id(), queue.name(), e);
    }
  }
}
