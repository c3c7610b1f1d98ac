package dev.hourglass.internal;

import dev.hourglass.Delivery;
import dev.hourglass.EnqueueResult;
import dev.hourglass.HourglassBuilder;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobHandler;
import dev.hourglass.JobInfo;
import dev.hourglass.JobNotFoundException;
import dev.hourglass.JobPage;
import dev.hourglass.JobSpec;
import dev.hourglass.JobState;
import dev.hourglass.Nack;
import dev.hourglass.NackResult;
import dev.hourglass.QueueSettings;
import dev.hourglass.QueueStats;
import dev.hourglass.Worker;
import dev.hourglass.WorkerOptions;
import dev.hourglass.internal.QueueTopology.Snapshot;
import dev.hourglass.internal.store.ServerClock;
import dev.hourglass.internal.store.Store;
import dev.hourglass.spi.PayloadCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The engine of one queue, shared by every handle on it whatever its payload type: each operation
 * is one script call on the job's partition, answered as a future of byte payloads. Arguments are
 * checked before anything is sent, and thrown at once. {@link QueueHandle} is the public face.
 */
final class RedisQueue {
  private static final Duration MAX_CLAIM_WAIT = Duration.ofHours(1);

  private final String name;
  private final QueueTopology topology;
  private final Promoters promoters;
  private final Workers workers;
  private final Executor callbacks;
  private final ScheduledExecutorService timer;
  private final JobsById byId;
  private final Settlements settlements;
  private final Enqueues enqueues;
  private final RedisDeadLetters dead;
  private final Claims claims;
  private final WakeWatch wakes;
  private final ClaimLoop.Sources loops;
  private final JobPages pages;
  private final QueueLifecycle lifecycle;
  private final RedisSchedules schedules;
  private volatile ClaimWaiters waiters; // made on the first long poll

  RedisQueue(QueueTopology topology, QueueServices c) {
    this.name = topology.name();
    this.topology = topology;
    Store store = c.store();
    ServerClock clock = c.clock();
    HourglassBuilder.Config config = c.config();
    this.promoters = c.promoters();
    this.workers = c.workers();
    this.callbacks = c.callbacks();
    this.timer = c.timer();
    JobViews views = new JobViews(topology);
    JobLocator locator = new JobLocator(store.schedules());
    this.byId = new JobsById(topology, store, clock, config, views, locator);
    this.enqueues = new Enqueues(topology, store, clock, config, c.ids(), callbacks);
    this.settlements =
        new Settlements(topology, store.deliveries(), clock, config, callbacks, locator);
    this.pages = new JobPages(topology, store.listings(), views);
    this.dead = new RedisDeadLetters(topology, store, pages, byId);
    this.claims = new Claims(topology, store.deliveries(), c.random(), views);
    this.wakes = new WakeWatch(name, store);
    this.loops = new ClaimLoop.Sources(claims, wakes, clock, c.commandTimeout());
    this.lifecycle = new QueueLifecycle(topology, store, pages);
    this.schedules = new RedisSchedules(topology, store.schedules(), clock);
  }

  String name() {
    return name;
  }

  CompletableFuture<QueueSettings> settings() {
    return topology.readAsync().thenApply(Snapshot::settings);
  }

  void configure(QueueSettings settings) {
    if (settings == null) {
      throw new InvalidArgumentException("settings", "is required");
    }
    topology.configure(settings);
  }

  // ---- inspect and admin ----

  CompletableFuture<Optional<JobInfo<byte[]>>> get(String id) {
    return byId.get(id);
  }

  CompletableFuture<Boolean> cancel(String id) {
    return byId.cancel(id);
  }

  CompletableFuture<JobInfo<byte[]>> reschedule(String id, Duration delay) {
    return byId.reschedule(id, delay);
  }

  CompletableFuture<JobInfo<byte[]>> reschedule(String id, Instant runAt) {
    return byId.reschedule(id, runAt);
  }

  /**
   * One promotion pass over every partition, run off the caller's thread (it may wait for a
   * partition's lock). For tests, which drive promotion themselves.
   */
  CompletableFuture<Long> promote() {
    return CompletableFuture.supplyAsync(() -> promoters.promoteNow(topology), callbacks);
  }

  CompletableFuture<QueueStats> stats() {
    return pages.stats();
  }

  CompletableFuture<JobPage<byte[]>> jobs(JobState state, int limit, String cursor) {
    return pages.page(state, limit, cursor);
  }

  CompletableFuture<List<Long>> dueWithin(List<Duration> horizons) {
    return pages.dueWithin(horizons);
  }

  /** Pauses ({@code true}) or resumes every partition's deliveries. */
  CompletableFuture<Void> pause(boolean paused) {
    return lifecycle.pause(paused);
  }

  /** Deletes the queue (see {@link QueueLifecycle#delete}); the future holds the jobs deleted. */
  CompletableFuture<Long> delete(boolean withJobs) {
    return lifecycle.delete(withJobs);
  }

  RedisDeadLetters dead() {
    return dead;
  }

  RedisSchedules schedules() {
    return schedules;
  }

  // ---- produce ----

  /** One job; a duplicate id fails the future with {@code DuplicateJobException}. */
  CompletableFuture<EnqueueResult> enqueue(JobSpec spec) {
    return enqueues.unique(spec);
  }

  /** One job; a duplicate id is a result with {@code created() == false}. */
  CompletableFuture<EnqueueResult> enqueueIfAbsent(JobSpec spec) {
    return enqueues.one(spec);
  }

  CompletableFuture<List<EnqueueResult>> enqueueAll(List<JobSpec> specs) {
    return enqueues.all(specs);
  }

  // ---- consume ----

  /** Ends long-poll waits and stops the wake-up watchers; the client calls this when it closes. */
  void close() {
    ClaimWaiters w = waiters;
    if (w != null) {
      w.close();
    }
    wakes.close();
  }

  /** Starts a worker of this queue; see {@link dev.hourglass.Queue#worker}. */
  <T> Worker worker(PayloadCodec<T> codec, JobHandler<T> handler, WorkerOptions options) {
    if (handler == null) {
      throw new InvalidArgumentException("handler", "is required");
    }
    if (options == null) {
      throw new InvalidArgumentException("options", "is required");
    }
    promoters.ensure(topology);
    return workers.start(
        closed ->
            new WorkerImpl<>(
                topology, loops, settlements, callbacks, closed, codec, handler, options));
  }

  CompletableFuture<List<Delivery<byte[]>>> claim(int max, Duration visibility, Duration wait) {
    checkClaim(max, visibility);
    if (wait == null || wait.isNegative() || wait.compareTo(MAX_CLAIM_WAIT) > 0) {
      throw new InvalidArgumentException("wait", "must be between 0 and 1 h, was " + wait);
    }
    promoters.ensure(topology);
    if (wait.isZero()) {
      return claims.any(max, visibility);
    }
    return waiters().claim(max, visibility, wait);
  }

  private ClaimWaiters waiters() {
    ClaimWaiters w = waiters;
    if (w == null) {
      synchronized (this) {
        if (waiters == null) {
          waiters = new ClaimWaiters(topology, claims, settlements, wakes, callbacks, timer);
        }
        w = waiters;
      }
    }
    return w;
  }

  /**
   * Hands back deliveries whose claim was given up before they reached anyone: ready again at once,
   * the attempt not counted. A failure leaves them to their lease.
   */
  void handBack(List<Delivery<byte[]>> got) {
    settlements.handBack(got);
  }

  private static void checkClaim(int max, Duration visibility) {
    if (max < 1 || max > 1000) {
      throw new InvalidArgumentException("max", "must be between 1 and 1000, was " + max);
    }
    if (visibility != null) {
      Names.duration("visibility", visibility);
    }
  }

  CompletableFuture<Void> ack(String id, String receipt) {
    return settlements.ack(id, receipt);
  }

  /** A nack by id and receipt: a retry by backoff reads the job's attempts first. */
  CompletableFuture<NackResult> nack(String id, String receipt, Nack nack) {
    checkNack(id, receipt, nack);
    if (nack.kill() || nack.delay().isPresent()) {
      return nack(id, receipt, nack, 0);
    }
    // The backoff needs the job's attempt count: read it (past its ttl too: until swept, its
    // lease holds it, as for a nack with a delay). The script re-checks the receipt.
    return byId.read(id, true)
        .thenCompose(
            job -> {
              JobInfo<byte[]> j = job.orElseThrow(() -> new JobNotFoundException(name, id));
              // The attempt being failed: an inflight job's attempts count it (a job in any
              // other state fails the receipt check).
              return nack(id, receipt, nack, Settlements.backoffDelay(j.backoff(), j.attempts()));
            });
  }

  /** A nack of a delivery: its attempt and backoff are known, nothing is read first. */
  CompletableFuture<NackResult> nack(Delivery<?> delivery, Nack nack) {
    if (delivery == null) {
      throw new InvalidArgumentException("delivery", "is required");
    }
    checkNack(delivery.id(), delivery.receipt(), nack);
    long backoffMs =
        nack.kill() || nack.delay().isPresent()
            ? 0
            : Settlements.backoffDelay(delivery.backoff(), delivery.attempt());
    return nack(delivery.id(), delivery.receipt(), nack, backoffMs);
  }

  private static void checkNack(String id, String receipt, Nack nack) {
    Names.id(id);
    Names.receipt(receipt);
    if (nack == null) {
      throw new InvalidArgumentException("nack", "is required");
    }
  }

  /** Sends a checked nack; {@code backoffMs} is the delay when the nack names none. */
  private CompletableFuture<NackResult> nack(String id, String receipt, Nack nack, long backoffMs) {
    long delayMs = nack.kill() ? 0 : nack.delay().map(Duration::toMillis).orElse(backoffMs);
    return topology
        .snapshotAsync() // the settings, read once, before the cached copy is used
        .thenCompose(s -> settlements.nack(id, receipt, nack.error(), delayMs, nack.kill()));
  }

  CompletableFuture<Void> release(String id, String receipt) {
    Names.id(id);
    Names.receipt(receipt);
    return settlements.release(id, receipt);
  }

  CompletableFuture<Instant> extend(String id, String receipt, Duration visibility) {
    Names.id(id);
    Names.receipt(receipt);
    Names.duration("visibility", visibility);
    return topology
        .snapshotAsync() // the settings, read once, before the cached copy is used
        .thenCompose(s -> settlements.extend(id, receipt, visibility.toMillis()));
  }
}
