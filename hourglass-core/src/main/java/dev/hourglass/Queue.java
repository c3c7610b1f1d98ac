package dev.hourglass;

import dev.hourglass.spi.PayloadCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A handle on one queue, typed by payload: produce, inspect, and consume. Thread-safe; cheap to
 * keep. Each method is one Lua script on the job's partition (O(log N) in the queue's size), unless
 * it says otherwise. Several handles of different payload types may share a queue: the type is the
 * handle's, the bytes are the queue's.
 *
 * <p>Every operation has an async twin ({@code ...Async}) returning a future: bad arguments are
 * thrown at once, failures of Redis or of the operation (e.g. {@link JobNotFoundException}) fail
 * the future with the same exception the blocking call throws. Calls not yet completed may reach
 * Redis in any order: wait for the future when one must land before another.
 *
 * @param <T> the payload type: {@code byte[]} for {@link Hourglass#queue(String)}
 */
public interface Queue<T> {

  /** The queue name. */
  String name();

  /** The codec that encodes what this handle enqueues and decodes what it reads. */
  PayloadCodec<T> codec();

  // ---- produce ----

  /**
   * A job spec builder with this payload encoded, for the fields {@link #enqueue(Object, Duration)}
   * does not take: {@code queue.enqueue(queue.spec(order).id("order-42").ttl(ttl).build())}.
   *
   * @throws InvalidArgumentException when the payload is null or the codec cannot encode it
   */
  JobSpec.Builder spec(T payload);

  /** Enqueues a payload due after {@code delay}, with a generated id and the queue's defaults. */
  default EnqueueResult enqueue(T payload, Duration delay) {
    return enqueue(spec(payload).delay(delay).build());
  }

  default CompletableFuture<EnqueueResult> enqueueAsync(T payload, Duration delay) {
    return enqueueAsync(spec(payload).delay(delay).build());
  }

  /** Enqueues a payload due at {@code runAt} (the past means now), with the queue's defaults. */
  default EnqueueResult enqueueAt(T payload, Instant runAt) {
    return enqueue(spec(payload).runAt(runAt).build());
  }

  default CompletableFuture<EnqueueResult> enqueueAtAsync(T payload, Instant runAt) {
    return enqueueAsync(spec(payload).runAt(runAt).build());
  }

  /**
   * Enqueues a job.
   *
   * @throws DuplicateJobException when a live job already has the spec's id (nothing is written)
   * @throws PayloadTooLargeException when the payload is over the client's limit
   */
  EnqueueResult enqueue(JobSpec spec);

  /** Concurrent calls share script calls. */
  CompletableFuture<EnqueueResult> enqueueAsync(JobSpec spec);

  /**
   * Like {@link #enqueue(JobSpec)}, but a duplicate id is reported ({@link EnqueueResult#created()}
   * false).
   */
  EnqueueResult enqueueIfAbsent(JobSpec spec);

  CompletableFuture<EnqueueResult> enqueueIfAbsentAsync(JobSpec spec);

  /**
   * Enqueues many jobs in few round trips: one script call per partition per chunk of up to 500
   * jobs, pipelined. Every spec is validated before anything is sent. Duplicates are reported per
   * job, in request order, not thrown. Jobs of one chunk are written atomically; chunks are
   * independent.
   */
  List<EnqueueResult> enqueueAll(List<JobSpec> specs);

  /** Lets a producer keep several batches in flight. */
  CompletableFuture<List<EnqueueResult>> enqueueAllAsync(List<JobSpec> specs);

  // ---- inspect and change ----

  /** The job, or empty when no live job has this id. */
  Optional<JobInfo<T>> get(String id);

  CompletableFuture<Optional<JobInfo<T>>> getAsync(String id);

  /**
   * Removes a delayed, ready or dead job.
   *
   * @return true when removed, false when no such job exists
   * @throws JobStateException when the job is inflight (its consumer settles it)
   */
  boolean cancel(String id);

  CompletableFuture<Boolean> cancelAsync(String id);

  /**
   * Gives a delayed or ready job a new due time, {@code delay} from the Redis server's now.
   *
   * @throws JobNotFoundException when no such job exists
   * @throws JobStateException when the job is inflight or dead
   */
  JobInfo<T> reschedule(String id, Duration delay);

  CompletableFuture<JobInfo<T>> rescheduleAsync(String id, Duration delay);

  /** Like {@link #reschedule(String, Duration)} with an absolute due time (the past means now). */
  JobInfo<T> reschedule(String id, Instant runAt);

  CompletableFuture<JobInfo<T>> rescheduleAsync(String id, Instant runAt);

  /** Counts per state and counters, summed over partitions (one script call per partition). */
  QueueStats stats();

  CompletableFuture<QueueStats> statsAsync();

  /**
   * The queue's settings as stored in Redis now (one read; creates the queue with the client's
   * defaults when it does not exist yet). Operations use a copy that is read again when any queue's
   * settings change (one read of a version counter, at most every few seconds).
   */
  QueueSettings settings();

  CompletableFuture<QueueSettings> settingsAsync();

  /** The dead-letter queue. */
  DeadLetters<T> dead();

  /**
   * One page of the queue's jobs in a state, across its partitions, ordered by due time (delayed,
   * ready), lease deadline (inflight) or time of death (dead), ties by id. States follow the server
   * clock: a job whose due time has passed is ready, whether or not a promoter has run.
   *
   * @param state the state to list
   * @param limit jobs per page, 1 to 1000
   * @param cursor {@link JobPage#next()} of the previous page of the same state, or null
   */
  JobPage<T> jobs(JobState state, int limit, String cursor);

  CompletableFuture<JobPage<T>> jobsAsync(JobState state, int limit, String cursor);

  /**
   * How many delayed jobs fall due within each horizon from now (server clock), e.g. {@code
   * dueWithin(List.of(Duration.ofMinutes(1), Duration.ofHours(1)))}; horizons ascending, 1 to 16 of
   * them. Jobs due within the next slot width count exactly; later ones are counted by their slot
   * lists, which keep a cancelled or rescheduled job's entry until the slot loads.
   */
  List<Long> dueWithin(List<Duration> horizons);

  CompletableFuture<List<Long>> dueWithinAsync(List<Duration> horizons);

  // ---- lifecycle ----

  /**
   * Pauses the queue: it keeps taking enqueues and keeping time, but claims (workers, long polls,
   * the server's push delivery) get no jobs until {@link #resume}. {@link QueueStats#paused()}
   * shows it. Jobs leased before the pause stay leased.
   */
  void pause();

  CompletableFuture<Void> pauseAsync();

  /** Resumes a paused queue and wakes its consumers for the jobs that are ready. */
  void resume();

  CompletableFuture<Void> resumeAsync();

  /**
   * Deletes the queue (its settings, counters and keys) when it holds no job in any state, dead
   * included. A later use of the queue creates it again with defaults.
   *
   * @throws QueueNotEmptyException when it holds jobs; nothing is deleted
   */
  void delete();

  CompletableFuture<Void> deleteAsync();

  /** Deletes the queue with all its jobs, whatever their state: how many jobs were deleted. */
  long deleteWithJobs();

  CompletableFuture<Long> deleteWithJobsAsync();

  // ---- consume ----

  /** Starts a worker on this queue with default options. */
  default Worker worker(JobHandler<T> handler) {
    return worker(handler, WorkerOptions.defaults());
  }

  /** Starts a worker on this queue. Close it (or the client) to stop it. */
  Worker worker(JobHandler<T> handler, WorkerOptions options);

  /**
   * Leases up to {@code max} ready jobs without waiting, oldest due first within a partition (a
   * queue of several partitions is claimed from a rotating partition first). Runs the queue's
   * promoter in this process from the first call on, so due jobs keep becoming ready.
   *
   * @param visibility lease length for these deliveries, or null for each job's own
   */
  List<Delivery<T>> claim(int max, Duration visibility);

  /**
   * Completing or cancelling the future before the claim answers gives the claim up: what it leased
   * is handed back at once (ready again, the attempt not counted).
   */
  CompletableFuture<List<Delivery<T>>> claimAsync(int max, Duration visibility);

  /**
   * Like {@link #claim(int, Duration)}, but when nothing is ready waits up to {@code wait} for at
   * least one job (a long poll). Waiting callers share one blocking connection per partition in
   * this client, so many can wait at once; a wake-up from a producer or the promoter ends the wait
   * within a round trip. Returns an empty list when nothing came in time or the client closed.
   *
   * @param wait 0 (do not wait) up to 1 h
   */
  List<Delivery<T>> claim(int max, Duration visibility, Duration wait);

  /**
   * Completing or cancelling the future ends the wait; jobs leased for it after that are handed
   * back at once (ready again, the attempt not counted).
   */
  CompletableFuture<List<Delivery<T>>> claimAsync(int max, Duration visibility, Duration wait);

  /**
   * Finishes a delivery: the job is deleted.
   *
   * @throws StaleReceiptException when the receipt no longer holds the job
   * @throws JobNotFoundException when the job no longer exists
   */
  default void ack(Delivery<T> delivery) {
    ack(required(delivery).id(), delivery.receipt());
  }

  default CompletableFuture<Void> ackAsync(Delivery<T> delivery) {
    return ackAsync(required(delivery).id(), delivery.receipt());
  }

  /** {@link #ack(Delivery)} by the delivery's id and receipt (e.g. from another process). */
  void ack(String id, String receipt);

  /** Concurrent acks of one partition share script calls. */
  CompletableFuture<Void> ackAsync(String id, String receipt);

  /**
   * Fails a delivery: the job is retried (by its backoff, from the delivery's attempt, or after the
   * nack's delay) or goes to dead.
   *
   * @throws StaleReceiptException when the receipt no longer holds the job
   * @throws JobNotFoundException when the job no longer exists
   */
  NackResult nack(Delivery<T> delivery, Nack nack);

  CompletableFuture<NackResult> nackAsync(Delivery<T> delivery, Nack nack);

  /**
   * {@link #nack(Delivery, Nack)} by the delivery's id and receipt; a retry by backoff reads the
   * job's attempt count first.
   */
  NackResult nack(String id, String receipt, Nack nack);

  CompletableFuture<NackResult> nackAsync(String id, String receipt, Nack nack);

  /**
   * Hands a delivery back unstarted: the job is ready again at once (in its place by due time) and
   * the attempt does not count, where a nack would spend it. For deliveries that never reached a
   * consumer, e.g. a claim answer that could not be written to its client.
   *
   * @throws StaleReceiptException when the receipt no longer holds the job
   * @throws JobNotFoundException when the job no longer exists
   */
  void release(String id, String receipt);

  CompletableFuture<Void> releaseAsync(String id, String receipt);

  /**
   * Extends a lease to {@code visibility} from now.
   *
   * @return the new lease deadline
   * @throws StaleReceiptException when the receipt no longer holds the job
   */
  default Instant extend(Delivery<T> delivery, Duration visibility) {
    return extend(required(delivery).id(), delivery.receipt(), visibility);
  }

  default CompletableFuture<Instant> extendAsync(Delivery<T> delivery, Duration visibility) {
    return extendAsync(required(delivery).id(), delivery.receipt(), visibility);
  }

  Instant extend(String id, String receipt, Duration visibility);

  CompletableFuture<Instant> extendAsync(String id, String receipt, Duration visibility);

  private static <D extends Delivery<?>> D required(D delivery) {
    if (delivery == null) {
      throw new InvalidArgumentException("delivery", "is required");
    }
    return delivery;
  }
}
