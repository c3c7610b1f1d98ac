package dev.hourglass.internal;

import dev.hourglass.Delivery;
import dev.hourglass.HourglassException;
import dev.hourglass.JobNotFoundException;
import dev.hourglass.ReplicaAckException;
import dev.hourglass.StaleReceiptException;
import dev.hourglass.internal.store.Failures;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settles a worker's deliveries without blocking its threads: acks, nacks and hand-backs are sent
 * and their replies awaited asynchronously (Lettuce pipelines them). A transient failure is retried
 * a few times; after that the job comes back when its lease runs out. Counts what is in flight, so
 * that closing the worker can wait for it.
 */
final class Settler {
  private static final Logger log = LoggerFactory.getLogger(Settler.class);
  private static final long[] RETRY_MS = {50, 200, 1000};

  private final String queue;
  private final Settlements settlements;
  private final ScheduledExecutorService timer;
  private final Executor callbacks;
  // Settlements sent but not answered yet; also the monitor awaitSettled() waits on.
  private final AtomicInteger settling = new AtomicInteger();

  Settler(
      String queue, Settlements settlements, ScheduledExecutorService timer, Executor callbacks) {
    this.queue = queue;
    this.settlements = settlements;
    this.timer = timer;
    this.callbacks = callbacks;
  }

  /**
   * Settles the delivery by the handler's outcome; runs {@code done} once Redis has answered (or
   * the settlement was given up), so that the worker counts the job as held until its lease is
   * gone.
   */
  void settle(Delivery<?> job, Outcome outcome, Runnable done) {
    settling.incrementAndGet();
    send(job, outcome, 0, done);
  }

  private void send(Delivery<?> job, Outcome outcome, int attempt, Runnable done) {
    CompletableFuture<?> call;
    try {
      if (outcome.ack()) {
        call = settlements.ackChecked(job.id(), job.receipt()); // the claim's own id and receipt
      } else {
        long delay =
            outcome.kill()
                ? 0
                : outcome.delayMs() >= 0
                    ? outcome.delayMs()
                    : Settlements.backoffDelay(job.backoff(), job.attempt());
        call = settlements.nack(job.id(), job.receipt(), outcome.error(), delay, outcome.kill());
      }
    } catch (RuntimeException e) {
      call = CompletableFuture.failedFuture(e);
    }
    call.whenComplete(
        (ok, error) -> {
          boolean retrying = false;
          try {
            if (error != null) {
              retrying = retryOrGiveUp(job, outcome, attempt, Failures.translate(error), done);
            }
          } finally {
            if (!retrying) {
              done.run();
            }
            settled();
          }
        });
  }

  /** True when a retry is scheduled (it runs {@code done} in the end). */
  private boolean retryOrGiveUp(
      Delivery<?> job, Outcome outcome, int attempt, HourglassException e, Runnable done) {
    if (e instanceof StaleReceiptException || e instanceof JobNotFoundException) {
      log.warn(
          "job {} in {} finished after its lease was lost; another delivery owns it: {}",
          job.id(),
          queue,
          e.getMessage());
      return false;
    }
    if (e instanceof ReplicaAckException) {
      // The settlement took effect on the master; sending it again would only be refused.
      log.warn(
          "job {} in {} is settled on the master, but its replica acknowledgement failed: {}",
          job.id(),
          queue,
          e.getMessage());
      return false;
    }
    if (attempt < RETRY_MS.length && !timer.isShutdown()) {
      settling.incrementAndGet();
      try {
        timer.schedule(
            () -> send(job, outcome, attempt + 1, done), RETRY_MS[attempt], TimeUnit.MILLISECONDS);
        return true;
      } catch (RuntimeException rejected) {
        settled();
      }
    }
    log.error(
        "could not settle job {} in {}; it will come back when its lease ends", job.id(), queue, e);
    return false;
  }

  /**
   * Returns a delivery that was never started to ready, without counting the attempt. From
   * Lettuce's event loop too: the call may have to reconnect, which blocks, so it is sent from the
   * callback executor. Counted as settling at once, so that closing waits for it.
   */
  void handBack(Delivery<?> job) {
    settling.incrementAndGet();
    try {
      callbacks.execute(() -> sendHandBack(job));
    } catch (RuntimeException rejected) {
      settled(); // the client is closing: the lease brings the job back
    }
  }

  private void sendHandBack(Delivery<?> job) {
    CompletableFuture<Void> call;
    try {
      call = settlements.release(job.id(), job.receipt());
    } catch (RuntimeException e) {
      call = CompletableFuture.failedFuture(e);
    }
    call.whenComplete(
        (ok, error) -> {
          if (error != null) {
            log.warn(
                "could not hand back job {} in {}; it comes back when its lease ends: {}",
                job.id(),
                queue,
                Failures.translate(error).getMessage());
          }
          settled();
        });
  }

  private void settled() {
    if (settling.decrementAndGet() == 0) {
      synchronized (settling) {
        settling.notifyAll();
      }
    }
  }

  /** Waits until nothing is being settled, or the deadline (System.nanoTime) passes. */
  void awaitSettled(long deadlineNanos) throws InterruptedException {
    synchronized (settling) {
      while (settling.get() > 0) {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
          return;
        }
        settling.wait(Math.max(1, left / 1_000_000));
      }
    }
  }
}
