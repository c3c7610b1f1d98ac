package dev.hourglass.internal;

import dev.hourglass.Delivery;
import dev.hourglass.HourglassException;
import dev.hourglass.JobHandler;
import dev.hourglass.JobNotFoundException;
import dev.hourglass.KillJobException;
import dev.hourglass.StaleReceiptException;
import dev.hourglass.Worker;
import dev.hourglass.WorkerOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Worker}: one {@link ClaimLoop} per partition feeding a fixed pool of handler threads. A
 * semaphore with one permit per handler thread, plus one per prefetched job, bounds what is
 * claimed: with the default prefetch of 0 the worker never holds a lease it has no thread for.
 * Prefetched jobs wait in the pool's queue; a job that has not started when the worker closes is
 * handed back instead of run.
 */
final class WorkerImpl implements Worker {
  private static final Logger log = LoggerFactory.getLogger(WorkerImpl.class);
  private static final long[] SETTLE_RETRY_MS = {50, 200, 1000};
  private static final Duration SETTLE_GRACE = Duration.ofSeconds(1);

  private final HourglassClient client;
  private final RedisQueue queue;
  private final JobHandler handler;
  private final WorkerOptions options;
  private final Semaphore freeSlots;
  private final ThreadPoolExecutor handlers;
  // One thread: the lease keeper's sweeps and the retries of failed acks and nacks.
  private final ScheduledExecutorService timer;
  private final LeaseKeeper leases;
  private final List<ClaimLoop> loops = new ArrayList<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  // Acks and nacks sent but not answered yet; close() waits for them. Also the monitor close()
  // waits on.
  private final AtomicInteger settling = new AtomicInteger();
  private volatile boolean running = true;
  private volatile boolean abandoned;

  WorkerImpl(HourglassClient client, RedisQueue queue, JobHandler handler, WorkerOptions options) {
    this.client = client;
    this.queue = queue;
    this.handler = handler;
    this.options = options;
    this.freeSlots = new Semaphore(options.concurrency() + options.prefetch());
    this.handlers =
        new ThreadPoolExecutor(
            options.concurrency(),
            options.concurrency(),
            0,
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(),
            DaemonThreads.numbered("hourglass-worker-" + queue.name()));
    ScheduledThreadPoolExecutor timer =
        new ScheduledThreadPoolExecutor(
            1, DaemonThreads.numbered("hourglass-lease-" + queue.name()));
    // The lease keeper re-arms one sweep task, cancelling the one before when it must run sooner:
    // cancelled tasks leave the queue at once.
    timer.setRemoveOnCancelPolicy(true);
    this.timer = timer;
    this.leases = new LeaseKeeper(queue, timer);
  }

  void start() {
    client.promoters.ensure(queue);
    for (PartitionRef part : queue.layout().partitions()) {
      ClaimLoop loop = new ClaimLoop(client, queue, part, this);
      loops.add(loop);
      loop.start();
    }
  }

  @Override
  public String queue() {
    return queue.name();
  }

  @Override
  public int inFlight() {
    return inFlight.get();
  }

  boolean running() {
    return running;
  }

  WorkerOptions options() {
    return options;
  }

  /** Blocks until at least one handler slot is free, then takes up to {@code max} free slots. */
  int acquireSlots(int max) throws InterruptedException {
    freeSlots.acquire();
    int extra = 0;
    while (extra < max - 1 && freeSlots.tryAcquire()) {
      extra++;
    }
    return 1 + extra;
  }

  void releaseSlots(int n) {
    freeSlots.release(n);
  }

  /** Runs one delivery on a handler thread; its slot is released when it is settled. */
  void dispatch(Delivery job) {
    inFlight.incrementAndGet();
    try {
      handlers.execute(new Waiting(job));
    } catch (RuntimeException rejected) {
      // The pool is shutting down: the job was never started; hand its lease back.
      left();
      handBackLater(job); // may run on the event loop: hand back off it
    }
  }

  /**
   * {@link #handBack} on the callback executor, for callers on Lettuce's event loop (the call may
   * have to reconnect, which blocks). Counted as settling at once, so close() waits for it even
   * before it runs.
   */
  void handBackLater(Delivery job) {
    settling.incrementAndGet();
    try {
      client.callbacks.execute(() -> sendHandBack(job));
    } catch (RuntimeException rejected) {
      settled(); // the client is closing: the lease brings the job back
    }
  }

  /** Returns a delivery that was never started to ready, without counting the attempt. */
  void handBack(Delivery job) {
    settling.incrementAndGet();
    sendHandBack(job);
  }

  private void sendHandBack(Delivery job) {
    CompletableFuture<Void> call;
    try {
      call = queue.releaseAsync(job.id(), job.receipt());
    } catch (RuntimeException e) {
      call = CompletableFuture.failedFuture(e);
    }
    call.whenComplete(
        (ok, error) -> {
          if (error != null) {
            log.warn(
                "could not hand back job {} in {}; it comes back when its lease ends: {}",
                job.id(),
                queue.name(),
                Failures.translate(error).getMessage());
          }
          settled();
        });
  }

  /** A delivery waiting in the handler pool's queue for a thread. */
  private final class Waiting implements Runnable {
    final Delivery job;

    Waiting(Delivery job) {
      this.job = job;
    }

    @Override
    public void run() {
      handle(job);
    }
  }

  /** Hands back deliveries that never reached a handler thread (taken off the pool's queue). */
  private void handBackWaiting(List<Runnable> tasks) {
    for (Runnable task : tasks) {
      if (task instanceof Waiting w) {
        left();
        handBack(w.job);
      }
    }
  }

  /** A delivery leaves the worker (handled, or given up unstarted): its slot is free again. */
  private void left() {
    inFlight.decrementAndGet();
    freeSlots.release();
  }

  private void handle(Delivery job) {
    if (!running) {
      // Closing: a job still waiting for a thread (prefetched) is not started; its lease goes back.
      left();
      handBack(job);
      return;
    }
    // A prefetched job's lease has been running since its claim. When it ran out while the job
    // waited, the promoter gives the job back (or already did): running it now could run it twice.
    long leaseLeftMs = job.leaseUntil().toEpochMilli() - client.serverClock.nowMs();
    if (leaseLeftMs <= 0) {
      log.warn(
          "job {} in {} waited for a handler thread past its lease and was not started; it comes"
              + " back by lease (prefetch too large for the handler time?)",
          job.id(),
          queue.name());
      left();
      return;
    }
    LeaseKeeper.Running kept = options.autoExtend() ? leases.start(job, leaseLeftMs) : null;
    try {
      Throwable failure = null;
      try {
        handler.handle(job);
      } catch (Throwable t) {
        failure = t;
      } finally {
        if (kept != null) {
          leases.finish(kept);
        }
      }
      if (abandoned) {
        return; // past the shutdown deadline: settle nothing, the lease brings the job back
      }
      settling.incrementAndGet();
      settleAsync(job, failure, 0);
    } finally {
      left();
    }
  }

  /**
   * Acks or nacks without blocking the handler thread; Lettuce pipelines the calls. A transient
   * failure is retried a few times; after that the job comes back when its lease runs out.
   */
  private void settleAsync(Delivery job, Throwable failure, int attempt) {
    CompletableFuture<?> call;
    try {
      if (failure == null) {
        call = queue.ackAsync(job.id(), job.receipt());
      } else {
        boolean kill = failure instanceof KillJobException;
        long delay = kill ? 0 : RedisQueue.backoffDelay(job.backoff(), job.attempt());
        call = queue.nackAsync(job.id(), job.receipt(), describe(failure), delay, kill);
      }
    } catch (RuntimeException e) {
      call = CompletableFuture.failedFuture(e);
    }
    call.whenComplete(
        (ok, error) -> {
          try {
            if (error != null) {
              retryOrGiveUp(job, failure, attempt, Failures.translate(error));
            }
          } finally {
            settled();
          }
        });
  }

  private void retryOrGiveUp(Delivery job, Throwable failure, int attempt, HourglassException e) {
    if (e instanceof StaleReceiptException || e instanceof JobNotFoundException) {
      log.warn(
          "job {} in {} finished after its lease was lost; another delivery owns it: {}",
          job.id(),
          queue.name(),
          e.getMessage());
    } else if (attempt < SETTLE_RETRY_MS.length && !timer.isShutdown()) {
      settling.incrementAndGet();
      try {
        timer.schedule(
            () -> settleAsync(job, failure, attempt + 1),
            SETTLE_RETRY_MS[attempt],
            TimeUnit.MILLISECONDS);
      } catch (RuntimeException rejected) {
        settled();
      }
    } else {
      log.error(
          "could not settle job {} in {}; it will come back when its lease ends",
          job.id(),
          queue.name(),
          e);
    }
  }

  private void settled() {
    if (settling.decrementAndGet() == 0) {
      synchronized (settling) {
        settling.notifyAll();
      }
    }
  }

  /** Waits until no ack or nack is in flight, or the deadline passes. */
  private void awaitSettled(long deadlineNanos) throws InterruptedException {
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

  private static String describe(Throwable t) {
    StringWriter out = new StringWriter();
    t.printStackTrace(new PrintWriter(out));
    return out.toString();
  }

  @Override
  public void close() {
    close(options.shutdownTimeout());
  }

  @Override
  public void close(Duration timeout) {
    if (!running) {
      return;
    }
    running = false;
    long deadline = System.nanoTime() + timeout.toNanos();
    loops.forEach(ClaimLoop::stop);
    // Prefetched jobs that have no thread yet go back at once, not when a thread frees up.
    List<Runnable> waiting = new ArrayList<>();
    handlers.getQueue().drainTo(waiting);
    handBackWaiting(waiting);
    handlers.shutdown();
    try {
      if (handlers.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        awaitSettled(deadline);
      } else {
        abandoned = true;
        handBackWaiting(handlers.shutdownNow());
        log.warn(
            "worker of {} closed with {} handlers still running; their jobs come back by lease",
            queue.name(),
            inFlight.get());
        // Acks already sent by handlers that did finish get a short grace to land.
        awaitSettled(System.nanoTime() + SETTLE_GRACE.toNanos());
      }
    } catch (InterruptedException e) {
      abandoned = true;
      handBackWaiting(handlers.shutdownNow());
      Thread.currentThread().interrupt();
    } finally {
      timer.shutdownNow();
      client.workerClosed(this);
    }
  }
}
