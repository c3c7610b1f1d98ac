package dev.hourglass.internal.store;

import dev.hourglass.Backoff;
import dev.hourglass.internal.store.Replies.Dropped;
import dev.hourglass.internal.store.Replies.Enqueued;
import dev.hourglass.internal.store.Replies.Found;
import dev.hourglass.internal.store.Replies.Rescheduled;
import dev.hourglass.spi.ScriptListener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The typed access to a partition's scripts: one method per script, which builds its KEYS and ARGV
 * and decodes its reply into a record of {@link Replies}. Callers never index into a reply. Every
 * future fails with a typed {@link dev.hourglass.HourglassException} ({@link Failures}).
 *
 * <p>Scripts that take slot lists (drop; and those of {@link Listings}) may ask for slot lists
 * their caller did not declare ({@link Status#NEED_SLOTS}); they are called again with them
 * declared. Claim and promote leave the clock work to clock.lua ({@link Deliveries}).
 */
public final class Store {
  private final ScriptRunner runner;
  private final Keys keys;
  private final Registry registry;
  private final Deliveries deliveries;
  private final Outboxes outboxes;
  private final EnqueueCalls enqueueCalls;
  private final Payloads payloads;
  private final Listings listings;
  private final ScheduleCalls schedules;

  public Store(
      RedisConnector redis,
      Keys keys,
      ServerClock serverClock,
      ScriptListener listener,
      Executor callbacks,
      java.time.Duration replicaTimeout) {
    this.runner = new ScriptRunner(redis, listener, callbacks, replicaTimeout);
    this.keys = keys;
    this.registry = new Registry(runner, keys, serverClock);
    this.payloads = new Payloads(runner, Zstd.choose());
    this.deliveries = new Deliveries(runner, serverClock, payloads);
    this.outboxes = new Outboxes(runner, payloads);
    this.enqueueCalls = new EnqueueCalls(runner, serverClock, payloads);
    this.listings = new Listings(runner, payloads);
    this.schedules = new ScheduleCalls(runner);
  }

  /** Compressed payloads: how enqueues store them, how reads open them. */
  public Payloads payloads() {
    return payloads;
  }

  public Keys keys() {
    return keys;
  }

  /** The scripts of the consumers' path (claim, ack, nack, extend, release, promote). */
  public Deliveries deliveries() {
    return deliveries;
  }

  /** The reads of a partition's jobs by state and of its counts. */
  public Listings listings() {
    return listings;
  }

  /** The calls on partitions' schedules. */
  public ScheduleCalls schedules() {
    return schedules;
  }

  /** The calls on partitions' outboxes of finished jobs. */
  public Outboxes outboxes() {
    return outboxes;
  }

  /** The registry-level calls (layout, queue names and settings). */
  public Registry registry() {
    return registry;
  }

  /**
   * A connection of its own for a loop that blocks on wake lists, for blocks of up to {@code
   * longestBlock}.
   */
  public BlockingConnection blockingConnection(java.time.Duration longestBlock) {
    return new BlockingConnection(
        runner.redis(), longestBlock.plus(runner.redis().commandTimeout()));
  }

  // ---- produce ----

  /**
   * A new job for {@link #enqueue}: {@code time} is a delay from the server's now when {@code
   * relative}, else epoch ms; {@code backoff} null means the queue's default; {@code flags} those
   * of the record (see {@link RecordCodec}), and {@code payload} as stored, with the dictionary it
   * was compressed with or null ({@link PayloadPacker}); {@code fresh} that the client made the id
   * at random for this job, so that no live job can hold it and enqueue.lua need not look it up.
   */
  public record NewJob(
      String id,
      boolean fresh,
      boolean relative,
      long time,
      long ttlMs,
      int maxAttempts,
      long visibilityMs,
      Backoff backoff,
      int flags,
      byte[] payload,
      ZstdDictionary dictionary) {}

  /**
   * The KEYS and ARGV of one script call, and the order it sends its items in (indexes into the
   * caller's list), which replies refer to.
   */
  record Call(Args keys, Args argv, int[] order) {}

  /**
   * Enqueues jobs of one partition, results in order; a job whose id an earlier job of the list has
   * is a duplicate of that one. With {@code replicas > 0} the future completes once that many
   * replicas hold them (see {@link ReplicaAcks}). So do {@link #cancel}, {@link Deliveries#ack} and
   * {@link Deliveries#nack}.
   */
  public CompletableFuture<List<Enqueued>> enqueue(
      Partition p, long slotWidthMs, List<NewJob> jobs, int replicas) {
    Map<String, Integer> firstOf = new HashMap<>();
    List<NewJob> distinct = new ArrayList<>(jobs.size());
    int[] sentAs = new int[jobs.size()];
    for (int i = 0; i < jobs.size(); i++) {
      Integer first = firstOf.putIfAbsent(jobs.get(i).id(), distinct.size());
      if (first == null) {
        sentAs[i] = distinct.size();
        distinct.add(jobs.get(i));
      } else {
        sentAs[i] = -1 - first;
      }
    }
    return enqueueCalls
        .enqueue(p, slotWidthMs, distinct, replicas)
        .thenApply(
            sent -> {
              List<Enqueued> out = new ArrayList<>(jobs.size());
              for (int i = 0; i < jobs.size(); i++) {
                if (sentAs[i] >= 0) {
                  out.add(sent.get(sentAs[i]));
                } else {
                  Enqueued first = sent.get(-1 - sentAs[i]);
                  out.add(new Enqueued(first.id(), Status.DUPLICATE, first.state(), first.dueMs()));
                }
              }
              return out;
            });
  }

  public CompletableFuture<Status> cancel(Partition p, String id, int replicas) {
    return runner
        .run(Script.CANCEL, p.keysWithAllPools(), p.argv().add(p.member(id)), replicas)
        .thenApply(Reply::status);
  }

  public CompletableFuture<Rescheduled> reschedule(
      Partition p, String id, boolean relative, long time, long slotStart, long lookaheadMs) {
    Args keyArgs = p.keysFor(id).add(p.slot(slotStart));
    Args argv =
        p.argv()
            .add(p.member(id))
            .add(relative ? "d" : "a")
            .add(time)
            .add(slotStart)
            .add(lookaheadMs);
    return runner
        .run(Script.RESCHEDULE, keyArgs, argv)
        .thenCompose(
            reply -> {
              Status status = Reply.status(reply);
              if (status != Status.OK) {
                return CompletableFuture.completedFuture(new Rescheduled(status, null, 0, null));
              }
              return payloads
                  .open(p, Reply.bytes(reply.get(3)))
                  .thenApply(
                      job ->
                          new Rescheduled(
                              status, Reply.str(reply.get(1)), Reply.num(reply.get(2)), job));
            });
  }

  // ---- inspect ----

  /**
   * A job, or {@code NOT_FOUND}; a job past its ttl that nothing swept yet is found only when
   * {@code evenExpired} (a nack by backoff needs its attempts while its lease still holds it).
   */
  public CompletableFuture<Found> get(Partition p, String id, boolean evenExpired) {
    return runner
        .run(Script.GET, p.keysFor(id), p.argv().add(p.member(id)).add(evenExpired ? "1" : "0"))
        .thenCompose(
            reply -> {
              Status status = Reply.status(reply);
              if (status != Status.OK) {
                return CompletableFuture.completedFuture(new Found(status, null, null, 0));
              }
              return payloads
                  .open(p, Reply.bytes(reply.get(1)))
                  .thenApply(
                      job ->
                          new Found(status, job, Reply.str(reply.get(2)), Reply.num(reply.get(3))));
            });
  }

  // ---- lifecycle ----

  /** Pauses ({@code true}) or resumes a partition's deliveries. */
  public CompletableFuture<Void> pause(Partition p, boolean paused) {
    return runner
        .run(Script.PAUSE, p.fixedKeys(), p.argv().add(paused ? "1" : "0"))
        .thenApply(reply -> null);
  }

  /**
   * Sets a partition's share of its queue's flow-control limits: a rate of {@code rateMax} per
   * {@code ratePeriodMs} (0: none) and a concurrency (0: none).
   */
  public CompletableFuture<Void> setLimits(
      Partition p, int rateMax, long ratePeriodMs, int concurrency) {
    return runner
        .run(
            Script.SET_LIMITS,
            p.fixedKeys(),
            p.argv()
                .add(rateMax > 0 ? Integer.toString(rateMax) : "")
                .add(ratePeriodMs)
                .add(concurrency > 0 ? Integer.toString(concurrency) : ""))
        .thenApply(reply -> null);
  }

  /**
   * Deletes a partition and, when {@code withJobs}, its jobs: {@code OK} with how many jobs went,
   * or {@code NOT_EMPTY} with how many it holds (then nothing changed).
   */
  public CompletableFuture<Dropped> drop(Partition p, boolean withJobs) {
    return runner
        .withSlots(p, Script.DROP, slots -> p.argv().add(withJobs ? "1" : "0").add(slots.size()))
        .thenApply(reply -> new Dropped(Reply.status(reply), Reply.num(reply.get(1))));
  }

  // ---- dead letters ----

  /** Requeues one dead job ({@code NOT_FOUND} when it is not dead): the status. */
  public CompletableFuture<Status> deadRequeue(Partition p, String id) {
    return runner
        .run(Script.DEAD_REQUEUE, p.keysWithAllPools(), p.argv().add(p.member(id)).add(1))
        .thenApply(Reply::status);
  }

  /** Requeues up to {@code limit} of the oldest dead jobs: how many. */
  public CompletableFuture<Long> deadRequeueOldest(Partition p, int limit) {
    return runner
        .run(Script.DEAD_REQUEUE, p.keysWithAllPools(), p.argv().add("").add(limit))
        .thenApply(reply -> Reply.num(reply.get(1)));
  }

  /** Deletes up to {@code limit} of the oldest dead jobs: how many. */
  public CompletableFuture<Long> deadPurge(Partition p, int limit) {
    return runner
        .run(Script.DEAD_PURGE, p.keysWithAllPools(), p.argv().add(limit))
        .thenApply(reply -> Reply.num(reply.get(1)));
  }
}
