package dev.hourglass.internal;

import dev.hourglass.Delivery;
import dev.hourglass.JobHandler;
import dev.hourglass.Worker;
import dev.hourglass.WorkerOptions;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.ServerClock;
import dev.hourglass.spi.PayloadCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Worker}: one {@link ClaimLoop} per partition feeding a fixed pool of handler threads.
 * {@link Capacity} bounds what is claimed: one job per thread plus an adaptive prefetch of jobs
 * waiting for a thread. The {@link LeaseKeeper} keeps every held job's lease, waiting or running; a
 * job that has not started when the worker closes is handed back instead of run.
 */
final class WorkerImpl<T> implements Worker, ClaimLoop.Target {
  private static final Logger log = LoggerFactory.getLogger(WorkerImpl.class);
  private static final Duration SETTLE_GRACE = Duration.ofSeconds(1);

  /** The longest a prefetched job should wait for a thread, at the handlers' measured speed. */
  private static final Duration MAX_PREFETCH_WAIT = Duration.ofSeconds(1);

  private final QueueTopology topology;
  private final String queue;
  private final ClaimLoop.Sources sources;
  private final Consumer<WorkerImpl<?>> onClosed;
  private final PayloadCodec<T> codec;
  private final JobHandler<T> handler;
  private final WorkerOptions options;
  private final Capacity capacity;
  private final ThreadPoolExecutor handlers;
  // One thread: the lease keeper's sweeps and the retries of failed acks and nacks.
  private final ScheduledThreadPoolExecutor timer;
  private final LeaseKeeper leases;
  private final Settler settler;
  private final List<ClaimLoop> loops = new ArrayList<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private volatile boolean running = true;
  private volatile boolean abandoned;

  /**
   * A worker of the queue of {@code topology}, not started; {@code onClosed} runs once when it has
   * closed.
   */
  WorkerImpl(
      QueueTopology topology,
      ClaimLoop.Sources sources,
      Settlements settlements,
      Executor callbacks,
      Consumer<WorkerImpl<?>> onClosed,
      PayloadCodec<T> codec,
      JobHandler<T> handler,
      WorkerOptions options) {
    this.topology = topology;
    this.queue = topology.name();
    this.sources = sources;
    this.onClosed = onClosed;
    this.codec = codec;
    this.handler = handler;
    this.options = options;
    Duration visibility =
        options.visibility() != null
            ? options.visibility()
            : topology.snapshot().settings().visibility();
    Duration wait = visibility.dividedBy(4);
    this.capacity =
        new Capacity(
            options.concurrency(),
            options.prefetch(),
            (wait.compareTo(MAX_PREFETCH_WAIT) < 0 ? wait : MAX_PREFETCH_WAIT).toNanos());
    this.handlers =
        new ThreadPoolExecutor(
            options.concurrency(),
            options.concurrency(),
            0,
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(),
            DaemonThreads.numbered("hourglass-worker-" + queue));
    this.timer =
        new ScheduledThreadPoolExecutor(1, DaemonThreads.numbered("hourglass-lease-" + queue));
    // The lease keeper re-arms one sweep task, cancelling the one before when it must run sooner:
    // cancelled tasks leave the queue at once.
    timer.setRemoveOnCancelPolicy(true);
    this.leases = new LeaseKeeper(queue, settlements, timer);
    this.settler = new Settler(queue, settlements, timer, callbacks);
  }

  void start() {
    QueueTopology.Snapshot s = topology.snapshot();
    int inFlight = s.inFlightPerPartition(ClaimLoop.MAX_CLAIMS_IN_FLIGHT);
    for (Partition part : s.partitions()) {
      ClaimLoop loop = sources.loop(queue, part, options, inFlight, this);
      loops.add(loop);
      loop.start();
    }
  }

  @Override
  public String queue() {
    return queue;
  }

  @Override
  public int inFlight() {
    return inFlight.get();
  }

  @Override
  public boolean running() {
    return running;
  }

  @Override
  public int acquire(int max) throws InterruptedException {
    return capacity.acquire(max);
  }

  @Override
  public void release(int n) {
    capacity.release(n);
  }

  /**
   * A claimed delivery enters the worker: its lease is kept from now on, and it waits for a handler
   * thread. Never blocks (it runs on Lettuce's event loop). {@code clock} is the estimate of the
   * clock of the server that leased it (its partition's), against which its lease deadline counts.
   */
  @Override
  public void dispatch(Delivery<byte[]> job, ServerClock clock) {
    if (!running) {
      // Closing: start nothing new, return the lease at once.
      capacity.release(1);
      settler.handBack(job);
      return;
    }
    inFlight.incrementAndGet();
    LeaseKeeper.Kept kept =
        options.autoExtend()
            ? leases.keep(job, job.leaseUntil().toEpochMilli() - clock.nowMs())
            : null;
    try {
      handlers.execute(new Waiting(job, kept, clock));
    } catch (RuntimeException rejected) {
      left(kept); // the pool is shutting down: the job was never started
      settler.handBack(job);
    }
  }

  /** A delivery waiting in the handler pool's queue for a thread. */
  private final class Waiting implements Runnable {
    final Delivery<byte[]> job;
    final LeaseKeeper.Kept kept;
    final ServerClock clock;

    Waiting(Delivery<byte[]> job, LeaseKeeper.Kept kept, ServerClock clock) {
      this.job = job;
      this.kept = kept;
      this.clock = clock;
    }

    @Override
    public void run() {
      handle(job, kept, clock);
    }
  }

  /** Hands back deliveries that never reached a handler thread (taken off the pool's queue). */
  private void handBackWaiting(List<Runnable> tasks) {
    for (Runnable task : tasks) {
      if (task instanceof WorkerImpl<?>.Waiting w) {
        left(w.kept);
        settler.handBack(w.job);
      }
    }
  }

  /** A delivery leaves the worker (handled, or given up unstarted). */
  private void left(LeaseKeeper.Kept kept) {
    if (kept != null) {
      leases.finish(kept);
    }
    inFlight.decrementAndGet();
    capacity.release(1);
  }

  private void handle(Delivery<byte[]> job, LeaseKeeper.Kept kept, ServerClock clock) {
    if (!running) {
      // Closing: a job still waiting for a thread is not started; its lease goes back.
      left(kept);
      settler.handBack(job);
      return;
    }
    long leaseUntil = kept != null ? kept.leaseUntilMs() : job.leaseUntil().toEpochMilli();
    if (leaseUntil <= clock.nowMs() || (kept != null && kept.lost())) {
      // Its lease ran out (or was lost) while it waited: the job comes back by lease (or did
      // already), and running it now could run it twice.
      log.warn(
          "job {} in {} waited for a handler thread past its lease and was not started; it comes"
              + " back by lease",
          job.id(),
          queue);
      left(kept);
      return;
    }
    long started = System.nanoTime();
    Outcome outcome;
    try {
      outcome = WorkerJob.run(job, codec, handler);
    } catch (VirtualMachineError fatal) {
      // The JVM failed (out of memory, say), not the job: nothing is settled, so the attempt is
      // not counted against it, and it comes back when its lease lapses. The error goes on to the
      // handler thread's uncaught-exception handler.
      left(kept);
      throw fatal;
    }
    capacity.handled(System.nanoTime() - started);
    if (kept != null) {
      leases.finish(kept);
    }
    if (abandoned) {
      left(null); // past the shutdown deadline: settle nothing, the lease brings it back
      return;
    }
    // The job is held until Redis has its ack or nack: a claim for its place must not find
    // its lease still there.
    settler.settle(job, outcome, () -> left(null));
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
        settler.awaitSettled(deadline);
      } else {
        abandoned = true;
        handBackWaiting(handlers.shutdownNow());
        log.warn(
            "worker of {} closed with {} handlers still running; their jobs come back by lease",
            queue,
            inFlight.get());
        // Acks already sent by handlers that did finish get a short grace to land.
        settler.awaitSettled(System.nanoTime() + SETTLE_GRACE.toNanos());
      }
    } catch (InterruptedException e) {
      abandoned = true;
      handBackWaiting(handlers.shutdownNow());
      Thread.currentThread().interrupt();
    } finally {
      timer.shutdownNow();
      onClosed.accept(this);
    }
  }
}
