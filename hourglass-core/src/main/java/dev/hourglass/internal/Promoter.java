package dev.hourglass.internal;

import dev.hourglass.HourglassException;
import dev.hourglass.QueueSettings;
import dev.hourglass.internal.store.Deliveries;
import dev.hourglass.internal.store.Deliveries.PromoteRequest;
import dev.hourglass.internal.store.Failures;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.Replies.Promoted;
import dev.hourglass.internal.store.ServerClock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The promoter of one partition: runs promote.lua when there is work (ttl expiry, lapsed leases,
 * slot lists to load ahead, due jobs to announce to blocked consumers, dead-letter retention).
 *
 * <p>A pass plans the next: at the next wake time the script reported, at once when a budget ran
 * out, or, while it follows another process's lock, when that lock could lapse if work is due by
 * then. A pub/sub hint of earlier work (a script lowered the partition's meta.due) brings it
 * forward. Between them runs a safety sweep: {@value #SAFETY_SWEEP_MS} ms, doubling after each pass
 * that found nothing to do up to {@value #IDLE_SWEEP_MS} ms, each spread over +-20% so that
 * partitions that fell idle together do not sweep at one instant, back to {@value #SAFETY_SWEEP_MS}
 * ms on any hint or progress. Every script that schedules promoter work announces it, so an idle
 * partition needs no frequent look; the sweep covers a hint lost with the pub/sub connection (which
 * is re-established and followed by a pass of every partition).
 *
 * <p>Runs on its client's one promoter thread ({@link Promoters}): {@link #pass} sends the script
 * and returns; the reply plans the next pass on that thread again. At most one pass is in flight.
 */
final class Promoter {
  private static final Logger log = LoggerFactory.getLogger(Promoter.class);
  static final long SAFETY_SWEEP_MS = 1000;
  static final long IDLE_SWEEP_MS = 10_000;
  // Renewed when half spent; a leader that dies is replaced within about this long.
  static final long LOCK_MS = 3000;
  static final int BUDGET = 1000;
  private static final long NOTHING_DUE = 9_000_000_000_000_000L;
  private static final long MAX_FAILURE_BACKOFF_MS = 1000;

  private final QueueTopology queue;
  private final Partition part;
  private final Deliveries deliveries;
  private final ServerClock clock;
  private final String owner;
  private final ScheduledExecutorService thread;

  // Touched on the promoter thread only.
  private ScheduledFuture<?> planned;
  private long plannedAtServerMs = Long.MAX_VALUE;
  private boolean passing;
  // The earliest plan asked for while a pass was in flight: its script may have run before the
  // one that announced the work, so its reply may not know of it.
  private long askedWhilePassing = Long.MAX_VALUE;
  private long sweepMs = SAFETY_SWEEP_MS;
  private long failureBackoffMs;
  private volatile boolean stopped;

  Promoter(
      QueueTopology queue,
      Partition part,
      Deliveries deliveries,
      ServerClock clock,
      String owner,
      ScheduledExecutorService thread) {
    this.queue = queue;
    this.part = part;
    this.deliveries = deliveries;
    this.clock = clock;
    this.owner = owner;
    this.thread = thread;
  }

  String channel() {
    return part.channel();
  }

  Partition partition() {
    return part;
  }

  /** Work falls due at {@code dueMs} (server clock), announced on pub/sub; any thread. */
  void hint(long dueMs) {
    onThread(
        () -> {
          sweepMs = SAFETY_SWEEP_MS;
          planAt(dueMs);
        });
  }

  /** Runs a pass as soon as possible; any thread. */
  void passSoon() {
    onThread(() -> planAt(Long.MIN_VALUE));
  }

  void stop() {
    stopped = true;
    onThread(
        () -> {
          if (planned != null) {
            planned.cancel(false);
          }
        });
  }

  /**
   * Runs {@code task} on the promoter thread. The executor would keep an exception in the task's
   * future, unseen, and this promoter would plan no more passes: it is logged, and a pass planned
   * after the failure backoff.
   */
  private void onThread(Runnable task) {
    try {
      thread.execute(() -> guarded(task));
    } catch (RejectedExecutionException closing) {
      // the client is closing
    }
  }

  private void guarded(Runnable task) {
    try {
      task.run();
    } catch (RuntimeException e) {
      log.error("promoter of {} partition {} hit a bug; retrying", queue.name(), part.index(), e);
      planned = null;
      plannedAtServerMs = Long.MAX_VALUE;
      passing = false;
      planAt(clock.nowMs() + MAX_FAILURE_BACKOFF_MS);
    }
  }

  /** Plans the next pass at {@code atServerMs} unless one is planned sooner. Promoter thread. */
  private void planAt(long atServerMs) {
    if (stopped) {
      return;
    }
    if (passing) {
      askedWhilePassing = Math.min(askedWhilePassing, atServerMs);
      return;
    }
    if (atServerMs >= plannedAtServerMs && planned != null) {
      return;
    }
    if (planned != null) {
      planned.cancel(false);
    }
    plannedAtServerMs = atServerMs;
    long now = clock.nowMs();
    long delayMs = atServerMs <= now ? 0 : atServerMs - now;
    planned = thread.schedule(() -> guarded(this::pass), delayMs, TimeUnit.MILLISECONDS);
  }

  private void pass() {
    planned = null;
    plannedAtServerMs = Long.MAX_VALUE;
    if (stopped) {
      return;
    }
    passing = true;
    askedWhilePassing = Long.MAX_VALUE;
    CompletableFuture<Promoted> reply;
    try {
      reply =
          queue
              .snapshotAsync()
              .thenCompose(s -> deliveries.promote(part, request(s.settings(), s.lookaheadMs())));
    } catch (RuntimeException e) {
      reply = CompletableFuture.failedFuture(e);
    }
    reply.whenComplete((r, error) -> onThread(() -> passed(r, error)));
  }

  PromoteRequest request(QueueSettings s, long lookaheadMs) {
    return new PromoteRequest(
        owner, LOCK_MS, lookaheadMs, BUDGET, s.deadMaxAge().toMillis(), s.deadMaxCount());
  }

  private void passed(Promoted r, Throwable error) {
    passing = false;
    if (stopped) {
      return;
    }
    if (error != null) {
      failed(Failures.translate(error)); // the retry's pass sees what was asked meanwhile
      return;
    }
    if (failureBackoffMs > 0) {
      log.info("promoter of {} partition {} works again", queue.name(), part.index());
      failureBackoffMs = 0;
    }
    boolean progress = r.madeReady() > 0 || r.more();
    sweepMs = progress ? SAFETY_SWEEP_MS : Math.min(sweepMs * 2, IDLE_SWEEP_MS);
    planAt(Math.min(next(r), askedWhilePassing));
  }

  /** When the pass after {@code r} is due (server clock). */
  private long next(Promoted r) {
    if (r.leader() && r.more()) {
      return Long.MIN_VALUE;
    }
    // Spread over +-20%: partitions that fell idle together do not all sweep at one instant.
    long sweepAt =
        r.nowMs() + (long) (sweepMs * (0.8 + 0.4 * ThreadLocalRandom.current().nextDouble()));
    if (r.leader()) {
      return Math.min(known(r.nextWakeMs()), sweepAt);
    }
    if (r.dueMs() <= r.lockUntilMs()) {
      // Work is due while another process holds the lock: take over if it lapses unrenewed.
      return r.lockUntilMs();
    }
    return Math.min(r.dueMs(), sweepAt);
  }

  /** The script's next wake time, or never when it knows none. */
  private static long known(long wakeMs) {
    return wakeMs < 0 || wakeMs >= NOTHING_DUE ? Long.MAX_VALUE : wakeMs;
  }

  private void failed(HourglassException e) {
    if (failureBackoffMs == 0) {
      log.warn(
          "promoter of {} partition {} failed, retrying: {}",
          queue.name(),
          part.index(),
          e.getMessage());
      failureBackoffMs = 50;
    } else {
      log.debug(
          "promoter of {} partition {} failed again: {}",
          queue.name(),
          part.index(),
          e.getMessage());
      failureBackoffMs = Math.min(failureBackoffMs * 2, MAX_FAILURE_BACKOFF_MS);
    }
    planAt(clock.nowMs() + failureBackoffMs);
  }
}
