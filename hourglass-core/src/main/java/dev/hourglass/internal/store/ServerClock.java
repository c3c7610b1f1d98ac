package dev.hourglass.internal.store;

import java.util.function.LongSupplier;

/**
 * An estimate of the Redis server's clock, from the server times scripts answer with, carried
 * forward by this host's monotonic clock (in nanoseconds): a step of this host's wall clock does
 * not move it. An answer carrying server time {@code T} (whole milliseconds, cut) says that when it
 * arrived the server's clock read at least {@code T}; the estimate keeps the highest such bound
 * seen, which is never above the server's clock and comes within the fastest answer's delay (and
 * the millisecond cut) of it. An estimate found ahead of the server's clock (its clock stepped
 * back, or ran slower than this host's) is replaced by {@link #reset}.
 *
 * <p>Uses: the time slot an enqueue expects (scripts check it against the server's time, so a poor
 * estimate costs memory, never correctness), and the times of records the client writes whole
 * ({@link #nowMs}): their created time, the due time of a delay, the expiry of a ttl; the scripts
 * refuse them when the estimate was ahead of the server's clock or stale.
 */
public final class ServerClock {
  private static final long MS = 1_000_000;

  private final LongSupplier monotonicNanos;
  private long serverMinusMonotonic; // ns, guarded by this
  private volatile boolean known;

  /** An estimate carried forward by {@link System#nanoTime}. */
  public ServerClock() {
    this(System::nanoTime);
  }

  /** An estimate carried forward by the given monotonic nanoseconds (tests). */
  public ServerClock(LongSupplier monotonicNanos) {
    this.monotonicNanos = monotonicNanos;
  }

  /** Records a server time Redis answered with. */
  public void observe(long serverNowMs) {
    long offset = serverNowMs * MS - monotonicNanos.getAsLong();
    synchronized (this) {
      if (!known || offset > serverMinusMonotonic) {
        serverMinusMonotonic = offset;
        known = true;
      }
    }
  }

  /** Takes a server time as the estimate, whatever was seen before (the estimate was ahead). */
  public synchronized void reset(long serverNowMs) {
    serverMinusMonotonic = serverNowMs * MS - monotonicNanos.getAsLong();
    known = true;
  }

  /**
   * Whether a server time has been seen: until then {@link #nowMs} is this host's wall clock, which
   * scripts check like any estimate.
   */
  public boolean known() {
    return known;
  }

  /** The estimated server time now, in epoch ms: never after the server's clock. */
  public long nowMs() {
    if (!known) {
      return System.currentTimeMillis();
    }
    long t = monotonicNanos.getAsLong();
    synchronized (this) {
      return Math.floorDiv(t + serverMinusMonotonic, MS);
    }
  }
}
