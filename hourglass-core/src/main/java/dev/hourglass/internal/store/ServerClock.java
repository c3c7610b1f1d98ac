package dev.hourglass.internal.store;

import java.util.function.LongSupplier;

/**
 * An estimate of the Redis server's clock, from the server times scripts answer with, carried
 * forward by this host's monotonic clock: a step of this host's wall clock does not move it. Every
 * answer reaches this client some time after Redis read its clock, so each one puts the estimate
 * too low by that delay; the estimate keeps the highest seen, which is never above the server's
 * clock and comes within the fastest answer's delay of it. An estimate found ahead of the server's
 * clock (its clock stepped back) is replaced by {@link #reset}.
 *
 * <p>Uses: the time slot an enqueue expects (scripts check it against the server's time, so a poor
 * estimate costs memory, never correctness), and the times of records the client writes whole
 * ({@link #behindMs}): their created time, the due time of a delay, the expiry of a ttl; the
 * scripts refuse them when the estimate was ahead of the server's clock or stale.
 */
public final class ServerClock {
  private final LongSupplier monotonicMs;
  private long serverMinusMonotonic; // guarded by this
  private volatile boolean known;

  /** An estimate carried forward by {@link System#nanoTime}. */
  public ServerClock() {
    this(() -> System.nanoTime() / 1_000_000);
  }

  /** An estimate carried forward by the given monotonic milliseconds (tests). */
  public ServerClock(LongSupplier monotonicMs) {
    this.monotonicMs = monotonicMs;
  }

  /** Records a server time Redis answered with. */
  public void observe(long serverNowMs) {
    long offset = serverNowMs - monotonicMs.getAsLong();
    synchronized (this) {
      if (!known || offset > serverMinusMonotonic) {
        serverMinusMonotonic = offset;
        known = true;
      }
    }
  }

  /** Takes a server time as the estimate, whatever was seen before (the estimate was ahead). */
  public synchronized void reset(long serverNowMs) {
    serverMinusMonotonic = serverNowMs - monotonicMs.getAsLong();
    known = true;
  }

  /**
   * Whether a server time has been seen: until then {@link #nowMs} is this host's wall clock, which
   * scripts check like any estimate.
   */
  public boolean known() {
    return known;
  }

  /** The estimated server time now, in epoch ms. */
  public long nowMs() {
    if (!known) {
      return System.currentTimeMillis();
    }
    synchronized (this) {
      return monotonicMs.getAsLong() + serverMinusMonotonic;
    }
  }

  /**
   * The estimate less one millisecond: not after the server's clock (both are whole milliseconds,
   * and an answer may have left Redis up to a millisecond after the time it carries).
   */
  public long behindMs() {
    return nowMs() - 1;
  }
}
