package dev.hourglass.internal.store;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
 *
 * <p>The clocks of a cluster's masters differ, so the estimate a record is written with is its
 * partition's ({@link #forPartition}), which only that partition's answers move, and so is the one
 * a lease deadline counts against; the client's own estimate, which every answer moves, serves
 * where a skew only makes a guess worse (a promoter's next pass, the slot a job will likely take).
 */
public final class ServerClock {
  private static final long MS = 1_000_000;

  private final LongSupplier monotonicNanos;
  private final ServerClock fallback; // until a server time is seen; null: this host's wall clock
  private final Map<String, ServerClock> partitions = new ConcurrentHashMap<>();
  private long serverMinusMonotonic; // ns, guarded by this
  private volatile boolean known;

  /** An estimate carried forward by {@link System#nanoTime}. */
  public ServerClock() {
    this(System::nanoTime);
  }

  /** An estimate carried forward by the given monotonic nanoseconds (tests). */
  public ServerClock(LongSupplier monotonicNanos) {
    this(monotonicNanos, null);
  }

  private ServerClock(LongSupplier monotonicNanos, ServerClock fallback) {
    this.monotonicNanos = monotonicNanos;
    this.fallback = fallback;
  }

  /**
   * The estimate of the clock of the server holding partition {@code p}: moved by that partition's
   * answers ({@link #observe(Partition, long)}), this estimate's until it has seen one.
   */
  public ServerClock forPartition(Partition p) {
    return partitions.computeIfAbsent(p.base(), k -> new ServerClock(monotonicNanos, this));
  }

  /** Records a server time partition {@code p}'s server answered with: its estimate and this. */
  void observe(Partition p, long serverNowMs) {
    forPartition(p).observe(serverNowMs);
    observe(serverNowMs);
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
   * The estimated server time now, in epoch ms: never after the server's clock. Until a server time
   * is seen, the client's estimate (for a partition's) or this host's wall clock, which scripts
   * check like any estimate.
   */
  public long nowMs() {
    if (!known) {
      return fallback != null ? fallback.nowMs() : System.currentTimeMillis();
    }
    long t = monotonicNanos.getAsLong();
    synchronized (this) {
      return Math.floorDiv(t + serverMinusMonotonic, MS);
    }
  }
}
