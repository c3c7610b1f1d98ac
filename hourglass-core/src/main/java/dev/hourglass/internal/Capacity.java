package dev.hourglass.internal;

/**
 * How many leased jobs a worker may hold at once: one per handler thread, plus a prefetch of jobs
 * waiting in memory for a thread, so that one claim carries many jobs when handlers are fast.
 *
 * <p>The prefetch adapts to the handlers' measured speed: it is as many jobs as the threads finish
 * in {@code targetWait} at the mean handler time so far (an exponentially weighted mean), at most
 * {@code maxPrefetch}. Fast handlers get the whole {@code maxPrefetch}; slow ones hold only what
 * they will start soon, so a prefetched job never waits long for a thread (its lease keeps running)
 * and other workers get their share of a burst. Until a first handler finishes it is one job per
 * thread.
 */
final class Capacity {
  private static final double WEIGHT = 0.1; // of each new handler time in the mean

  private final int threads;
  private final int maxPrefetch;
  private final double targetWaitNanos;
  private int held; // guarded by this
  private int limit; // guarded by this
  private double meanNanos = Double.NaN; // guarded by this

  Capacity(int threads, int maxPrefetch, long targetWaitNanos) {
    this.threads = threads;
    this.maxPrefetch = maxPrefetch;
    this.targetWaitNanos = targetWaitNanos;
    this.limit = threads + Math.min(maxPrefetch, threads);
  }

  /** Blocks until at least one job may be taken, then takes up to {@code max}: how many. */
  synchronized int acquire(int max) throws InterruptedException {
    while (held >= limit) {
      wait();
    }
    int n = Math.min(max, limit - held);
    held += n;
    return n;
  }

  /** {@code n} jobs taken are gone (handled, handed back, or never claimed). */
  synchronized void release(int n) {
    held -= n;
    notifyAll();
  }

  /** A handler took {@code nanos}: the prefetch follows the mean handler time. */
  synchronized void handled(long nanos) {
    meanNanos = Double.isNaN(meanNanos) ? nanos : meanNanos + WEIGHT * (nanos - meanNanos);
    double fits = threads * targetWaitNanos / Math.max(1.0, meanNanos);
    int newLimit = threads + (int) Math.min(maxPrefetch, fits);
    if (newLimit > limit) {
      notifyAll();
    }
    limit = newLimit;
  }

  /** Jobs the worker may hold now, threads included. */
  synchronized int limit() {
    return limit;
  }
}
