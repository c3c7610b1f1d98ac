package dev.hourglass.internal;

import dev.hourglass.Delivery;
import dev.hourglass.HourglassException;
import dev.hourglass.WorkerOptions;
import dev.hourglass.internal.store.Failures;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.ServerClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The claim loop of a worker on one partition. Each claim asks for as many jobs as the worker may
 * still hold ({@link Capacity}, up to maxClaim). While claims come back full, several may be in
 * flight, so the round trip does not bound throughput: {@value #MAX_CLAIMS_IN_FLIGHT} on a queue of
 * one partition, shared by a queue's partitions ({@link
 * QueueTopology.Snapshot#inFlightPerPartition}), since every claim loop of the worker draws on the
 * same capacity; after a wake-up one claim goes alone, as most wake-ups find fewer jobs than a
 * claim takes, and claims sent beside it would come back empty, each a script call for nothing.
 * When a claim comes back short, the partition has nothing ready: the loop lets the claims in
 * flight land, then waits on the queue's {@link WakeWatch} until a producer or promoter pushes a
 * token on the partition's wake list or {@code idleWait} passes. When the queue's flow-control
 * limits held ready jobs back, the claim said when they next let one through: the loop waits until
 * then at the latest (an ack under a concurrency limit pushes a token sooner). It never spins.
 */
final class ClaimLoop implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(ClaimLoop.class);
  private static final long MAX_FAILURE_BACKOFF_MS = 2000;
  static final int MAX_CLAIMS_IN_FLIGHT = 4;

  private final String queue;
  private final Partition part;
  private final Claims claims;
  private final WorkerOptions options;
  private final Target worker;
  private final Duration commandTimeout;
  private final Thread thread;
  private final int maxInFlight;
  private final Semaphore claimsInFlight;
  // Set by claim replies, read by the loop: ready ran dry, or a claim failed.
  private volatile boolean drained;
  // Set by claim replies: the last claim came back full, so more may be ready behind it.
  private volatile boolean lastFull;
  private volatile HourglassException failure;
  // Set by claim replies: when (System.nanoTime) the limits next let a job through, 0 when none
  // held jobs back.
  private volatile long heldUntilNanos;
  private final WakeWatch wakes;
  private long seen; // the partition's wake count before the claims since the last wake-up
  private final ServerClock clock; // the partition's server: leases count against it

  /** What a claim loop feeds: the worker that runs it. */
  interface Target {
    /** False once the worker closes: the loop ends. */
    boolean running();

    /** Blocks until the worker may take at least one more job, then takes up to {@code max}. */
    int acquire(int max) throws InterruptedException;

    /** Gives back capacity taken by {@link #acquire} that no job used. */
    void release(int n);

    /** A leased job enters the worker; never blocks (it runs on Lettuce's event loop). */
    void dispatch(Delivery<byte[]> job, ServerClock clock);
  }

  /** What every claim loop of a queue in this client draws on. */
  record Sources(Claims claims, WakeWatch wakes, ServerClock clock, Duration commandTimeout) {
    /** A loop on {@code part} for a worker with these options, its own connection to block on. */
    ClaimLoop loop(
        String queue, Partition part, WorkerOptions options, int maxInFlight, Target worker) {
      return new ClaimLoop(
          queue,
          part,
          claims,
          wakes,
          clock.forPartition(part),
          commandTimeout,
          options,
          maxInFlight,
          worker);
    }
  }

  /**
   * A loop on {@code part}; {@code wakes} is the queue's wake-up wait, {@code clock} the estimate
   * of the partition's server clock, {@code commandTimeout} bounds {@link #stop}.
   */
  ClaimLoop(
      String queue,
      Partition part,
      Claims claims,
      WakeWatch wakes,
      ServerClock clock,
      Duration commandTimeout,
      WorkerOptions options,
      int maxInFlight,
      Target worker) {
    this.queue = queue;
    this.maxInFlight = maxInFlight;
    this.claimsInFlight = new Semaphore(maxInFlight);
    this.part = part;
    this.claims = claims;
    this.options = options;
    this.worker = worker;
    this.commandTimeout = commandTimeout;
    this.wakes = wakes;
    this.clock = clock;
    this.thread = new Thread(this, "hourglass-claim-" + queue + "." + part.index());
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  @Override
  public void run() {
    long failureBackoff = 50;
    seen = wakes.generation(part);
    try {
      while (worker.running()) {
        if (drained || failure != null) {
          awaitClaimsInFlight();
          HourglassException failed = failure;
          if (failed != null) {
            failure = null;
            log.warn(
                "claim from {} failed, retrying in {} ms: {}",
                queue,
                failureBackoff,
                failed.getMessage());
            Thread.sleep(failureBackoff);
            failureBackoff = Math.min(failureBackoff * 2, MAX_FAILURE_BACKOFF_MS);
            continue;
          }
          failureBackoff = 50;
          drained = false;
          lastFull = false;
          awaitWake();
          continue;
        }
        int slots = worker.acquire(options.maxClaim());
        try {
          if (!lastFull) {
            awaitClaimsInFlight(); // one claim at a time until one comes back full
          }
          claimsInFlight.acquire();
        } catch (InterruptedException e) {
          worker.release(slots);
          throw e;
        }
        if (drained || failure != null) {
          // A claim landed while this loop waited and found the partition empty (or failed): do
          // not send another one into it; go back and wait.
          claimsInFlight.release();
          worker.release(slots);
          continue;
        }
        claims
            .from(part, slots, options.visibility())
            .whenComplete((got, error) -> claimed(slots, got, error));
      }
    } catch (InterruptedException e) {
      // stop() interrupts; claims in flight settle themselves in claimed()
    }
  }

  /**
   * A claim came back (on Lettuce's event loop: nothing here may block): hand its jobs to the
   * worker, return the unused capacity, and note when ready ran dry so the loop blocks for a
   * wake-up instead of claiming again.
   */
  private void claimed(int slots, Claims.Got claim, Throwable error) {
    try {
      if (error != null) {
        failure = Failures.translate(error); // before freeing capacity, as with drained below
        worker.release(slots);
        return;
      }
      List<Delivery<byte[]>> got = claim.jobs();
      heldUntilNanos =
          claim.heldForMs() == 0 ? 0 : System.nanoTime() + claim.heldForMs() * 1_000_000L;
      // Mark the drain before freeing capacity: the loop wakes on free capacity and must see it,
      // or it would send more claims into an empty partition before blocking.
      if (got.size() < slots) {
        drained = true;
      }
      lastFull = got.size() >= slots;
      worker.release(slots - got.size());
      got.forEach(job -> worker.dispatch(job, clock)); // never blocks; a closing worker hands back
    } finally {
      claimsInFlight.release();
    }
  }

  private void awaitClaimsInFlight() throws InterruptedException {
    claimsInFlight.acquire(maxInFlight);
    claimsInFlight.release(maxInFlight);
  }

  /**
   * Blocks until a wake token of the partition is taken (at once if one was since the claims before
   * this wait were sent) or idleWait passes, or sooner the moment the limits let a job through
   * again; then notes the count the next claims follow.
   */
  private void awaitWake() throws InterruptedException {
    CountDownLatch woken = new CountDownLatch(1);
    WakeWatch.Wait wait = wakes.on(part, woken::countDown);
    try {
      if (wakes.park(wait, seen)) { // false: the client is closing, and stops this loop
        long waitNanos = options.idleWait().toNanos();
        long held = heldUntilNanos;
        if (held != 0) {
          waitNanos = Math.min(waitNanos, Math.max(0, held - System.nanoTime()));
        }
        woken.await(waitNanos, TimeUnit.NANOSECONDS);
      }
    } finally {
      wakes.cancel(wait);
      seen = wakes.generation(part);
    }
  }

  /**
   * Stops the loop: interrupts a wait for a wake-up or for capacity, waits for the thread, then for
   * claims still in flight: they land after the worker stopped running and hand their jobs back,
   * and close() waits for those hand-backs. Bounded by the command timeout.
   */
  void stop() {
    thread.interrupt();
    long waitMs = commandTimeout.plusSeconds(1).toMillis();
    try {
      thread.join(waitMs);
      if (claimsInFlight.tryAcquire(maxInFlight, waitMs, TimeUnit.MILLISECONDS)) {
        claimsInFlight.release(maxInFlight);
      }
    } catch (InterruptedException e) {
      // the caller is interrupted: stop waiting
      Thread.currentThread().interrupt();
    }
  }
}
