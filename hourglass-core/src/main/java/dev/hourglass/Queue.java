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
 * <p>Every call that reaches Redis may fail with {@link RedisUnavailableException}: Redis could not
 * be reached, was not ready, or did not answer within the command timeout ({@link
 * RedisUnavailableException#outcomeUnknown()} says whether the call may have taken effect).
 *
 * @param <T> the payload type: {@code byte[]} for {@link Hourglass#queue(String)}
 */
public interface Queue<T> {

  /**
   * The queue name.
   *
   * @return the name this handle was opened with
   */
  String name();

  /**
   * The codec that encodes what this handle enqueues and decodes what it reads.
   *
   * @return this handle's codec
   */
  PayloadCodec<T> codec();

  // ---- produce ----

  /**
   * A job spec builder with this payload encoded, for the fields {@link #enqueue(Object, Duration)}
   * does not take: {@code queue.enqueue(queue.spec(order).id("order-42").ttl(ttl).build())}.
   *
   * @param payload the payload, encoded now by this handle's codec
   * @return a builder holding the encoded payload and nothing else
   * @throws InvalidArgumentException when the payload is null or the codec cannot encode it
   */
  JobSpec.Builder spec(T payload);

  /**
   * Enqueues a payload due after {@code delay}, with a generated id and the queue's defaults.
   *
   * @param payload the payload, encoded by this handle's codec
   * @param delay from the Redis server's now, zero or positive
   * @return the new job's id, state and due time
   * @throws InvalidArgumentException when the payload cannot be encoded or the delay is negative or
   *     over 100 years
   * @throws PayloadTooLargeException when the encoded payload is over the client's limit
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  default EnqueueResult enqueue(T payload, Duration delay) {
    return enqueue(spec(payload).delay(delay).build());
  }

  /**
   * {@link #enqueue(Object, Duration)} without blocking.
   *
   * @param payload the payload, encoded by this handle's codec
   * @param delay from the Redis server's now, zero or positive
   * @return a future of the new job's id, state and due time; it fails with {@link
   *     RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, when the payload cannot be encoded or the delay is
   *     negative or over 100 years
   * @throws PayloadTooLargeException at once, when the encoded payload is over the client's limit
   */
  default CompletableFuture<EnqueueResult> enqueueAsync(T payload, Duration delay) {
    return enqueueAsync(spec(payload).delay(delay).build());
  }

  /**
   * Enqueues a payload due at {@code runAt} (the past means now), with the queue's defaults.
   *
   * @param payload the payload, encoded by this handle's codec
   * @param runAt the due time, compared with the Redis server's clock
   * @return the new job's id, state and due time
   * @throws InvalidArgumentException when the payload cannot be encoded or {@code runAt} is after
   *     {@link JobSpec#MAX_RUN_AT}
   * @throws PayloadTooLargeException when the encoded payload is over the client's limit
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  default EnqueueResult enqueueAt(T payload, Instant runAt) {
    return enqueue(spec(payload).runAt(runAt).build());
  }

  /**
   * {@link #enqueueAt(Object, Instant)} without blocking.
   *
   * @param payload the payload, encoded by this handle's codec
   * @param runAt the due time, compared with the Redis server's clock
   * @return a future of the new job's id, state and due time; it fails with {@link
   *     RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, when the payload cannot be encoded or {@code runAt}
   *     is after {@link JobSpec#MAX_RUN_AT}
   * @throws PayloadTooLargeException at once, when the encoded payload is over the client's limit
   */
  default CompletableFuture<EnqueueResult> enqueueAtAsync(T payload, Instant runAt) {
    return enqueueAsync(spec(payload).runAt(runAt).build());
  }

  /**
   * Enqueues a job.
   *
   * @param spec the job; its unset fields take the queue's defaults
   * @return the job's id (generated when the spec has none), state and due time
   * @throws DuplicateJobException when a live job already has the spec's id (nothing is written)
   * @throws PayloadTooLargeException when the payload is over the client's limit
   * @throws InvalidArgumentException when {@code spec} is null, or a plug-in {@link
   *     dev.hourglass.spi.IdGenerator} made an invalid id
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  EnqueueResult enqueue(JobSpec spec);

  /**
   * {@link #enqueue(JobSpec)} without blocking. Concurrent calls share script calls.
   *
   * @param spec the job; its unset fields take the queue's defaults
   * @return a future of the job's id, state and due time; it fails with {@link
   *     DuplicateJobException} when a live job already has the spec's id (nothing is written), with
   *     {@link InvalidArgumentException} when a plug-in {@link dev.hourglass.spi.IdGenerator} made
   *     an invalid id, and with {@link RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, when {@code spec} is null
   * @throws PayloadTooLargeException at once, when the payload is over the client's limit
   */
  CompletableFuture<EnqueueResult> enqueueAsync(JobSpec spec);

  /**
   * Like {@link #enqueue(JobSpec)}, but a duplicate id is reported ({@link EnqueueResult#created()}
   * false).
   *
   * @param spec the job; its unset fields take the queue's defaults
   * @return the new job, or on a duplicate id the live job's state and due time with {@code
   *     created()} false (nothing is written)
   * @throws PayloadTooLargeException when the payload is over the client's limit
   * @throws InvalidArgumentException when {@code spec} is null, or a plug-in {@link
   *     dev.hourglass.spi.IdGenerator} made an invalid id
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  EnqueueResult enqueueIfAbsent(JobSpec spec);

  /**
   * {@link #enqueueIfAbsent(JobSpec)} without blocking. Concurrent calls share script calls.
   *
   * @param spec the job; its unset fields take the queue's defaults
   * @return a future of the new job, or on a duplicate id of the live job's state and due time with
   *     {@code created()} false; it fails with {@link InvalidArgumentException} when a plug-in
   *     {@link dev.hourglass.spi.IdGenerator} made an invalid id, and with {@link
   *     RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, when {@code spec} is null
   * @throws PayloadTooLargeException at once, when the payload is over the client's limit
   */
  CompletableFuture<EnqueueResult> enqueueIfAbsentAsync(JobSpec spec);

  /**
   * Enqueues many jobs in few round trips: one script call per partition per chunk of up to 500
   * jobs, pipelined. Every spec is validated before anything is sent. Duplicates are reported per
   * job, in request order, not thrown. Jobs of one chunk are written atomically; chunks are
   * independent.
   *
   * @param specs the jobs; each one's unset fields take the queue's defaults
   * @return one result per spec, in request order; a duplicate has {@code created()} false
   * @throws InvalidArgumentException when {@code specs} or one of them is null (its field names its
   *     index, e.g. {@code specs[3]}), or a plug-in id generator made an invalid id
   * @throws PayloadTooLargeException when a payload is over the client's limit (nothing is sent)
   * @throws RedisUnavailableException when Redis cannot take a chunk; other chunks may have been
   *     written
   */
  List<EnqueueResult> enqueueAll(List<JobSpec> specs);

  /**
   * {@link #enqueueAll(List)} without blocking; lets a producer keep several batches in flight.
   *
   * @param specs the jobs; each one's unset fields take the queue's defaults
   * @return a future of one result per spec, in request order (a duplicate has {@code created()}
   *     false); it fails with {@link InvalidArgumentException} when a plug-in id generator made an
   *     invalid id, and with {@link RedisUnavailableException} when Redis cannot take a chunk
   *     (other chunks may have been written)
   * @throws InvalidArgumentException at once, when {@code specs} or one of them is null
   * @throws PayloadTooLargeException at once, when a payload is over the client's limit
   */
  CompletableFuture<List<EnqueueResult>> enqueueAllAsync(List<JobSpec> specs);

  // ---- inspect and change ----

  /**
   * The job, or empty when no live job has this id.
   *
   * @param id the job id
   * @return the job in its state now, by the Redis server's clock, or empty
   * @throws InvalidArgumentException when the id is not a valid job id ({@link JobSpec#ID_PATTERN})
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  Optional<JobInfo<T>> get(String id);

  /**
   * {@link #get(String)} without blocking.
   *
   * @param id the job id
   * @return a future of the job in its state now, or of empty when no live job has this id; it
   *     fails with {@link RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, when the id is not a valid job id
   */
  CompletableFuture<Optional<JobInfo<T>>> getAsync(String id);

  /**
   * Removes a delayed, ready or dead job.
   *
   * @param id the job id
   * @return true when removed, false when no such job exists
   * @throws JobStateException when the job is inflight (its consumer settles it)
   * @throws InvalidArgumentException when the id is not a valid job id
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  boolean cancel(String id);

  /**
   * {@link #cancel(String)} without blocking.
   *
   * @param id the job id
   * @return a future of true when the job was removed, false when no such job exists; it fails with
   *     {@link JobStateException} when the job is inflight, and with {@link
   *     RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, when the id is not a valid job id
   */
  CompletableFuture<Boolean> cancelAsync(String id);

  /**
   * Gives a delayed or ready job a new due time, {@code delay} from the Redis server's now.
   *
   * @param id the job id
   * @param delay from the Redis server's now, zero or positive
   * @return the job with its new due time
   * @throws JobNotFoundException when no such job exists
   * @throws JobStateException when the job is inflight or dead
   * @throws InvalidArgumentException when the id is not a valid job id, or the delay is null or
   *     negative
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  JobInfo<T> reschedule(String id, Duration delay);

  /**
   * {@link #reschedule(String, Duration)} without blocking.
   *
   * @param id the job id
   * @param delay from the Redis server's now, zero or positive
   * @return a future of the job with its new due time; it fails with {@link JobNotFoundException}
   *     when no such job exists, with {@link JobStateException} when the job is inflight or dead,
   *     and with {@link RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, when the id is not a valid job id, or the delay is
   *     null or negative
   */
  CompletableFuture<JobInfo<T>> rescheduleAsync(String id, Duration delay);

  /**
   * Like {@link #reschedule(String, Duration)} with an absolute due time (the past means now).
   *
   * @param id the job id
   * @param runAt the new due time, compared with the Redis server's clock
   * @return the job with its new due time
   * @throws JobNotFoundException when no such job exists
   * @throws JobStateException when the job is inflight or dead
   * @throws InvalidArgumentException when the id is not a valid job id, or {@code runAt} is null or
   *     after {@link JobSpec#MAX_RUN_AT}
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  JobInfo<T> reschedule(String id, Instant runAt);

  /**
   * {@link #reschedule(String, Instant)} without blocking.
   *
   * @param id the job id
   * @param runAt the new due time, compared with the Redis server's clock
   * @return a future of the job with its new due time; it fails with {@link JobNotFoundException}
   *     when no such job exists, with {@link JobStateException} when the job is inflight or dead,
   *     and with {@link RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, when the id is not a valid job id, or {@code runAt}
   *     is null or after {@link JobSpec#MAX_RUN_AT}
   */
  CompletableFuture<JobInfo<T>> rescheduleAsync(String id, Instant runAt);

  /**
   * Counts per state and counters, summed over partitions (one script call per partition).
   *
   * @return the queue's counts now, by the Redis server's clock, and its counters since creation
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  QueueStats stats();

  /**
   * {@link #stats()} without blocking.
   *
   * @return a future of the queue's counts and counters; it fails with {@link
   *     RedisUnavailableException} when Redis cannot take the call
   */
  CompletableFuture<QueueStats> statsAsync();

  /**
   * The queue's settings as stored in Redis now (one read; creates the queue with the client's
   * defaults when it does not exist yet). Operations use a copy that is read again when any queue's
   * settings change (one read of a version counter, at most every few seconds).
   *
   * @return the stored settings
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  QueueSettings settings();

  /**
   * {@link #settings()} without blocking.
   *
   * @return a future of the stored settings (the queue is created with the client's defaults when
   *     it does not exist yet); it fails with {@link RedisUnavailableException} when Redis cannot
   *     take the call
   */
  CompletableFuture<QueueSettings> settingsAsync();

  /**
   * The dead-letter queue. Sends nothing.
   *
   * @return the dead letters of this queue, read with this handle's codec
   */
  DeadLetters<T> dead();

  /**
   * The queue's schedules (recurring jobs), their payloads typed like this handle's.
   *
   * @return the schedules of this queue
   */
  Schedules<T> schedules();

  /**
   * One page of the queue's jobs in a state, across its partitions, ordered by due time (delayed,
   * ready), lease deadline (inflight) or time of death (dead), ties by id. States follow the server
   * clock: a job whose due time has passed is ready, whether or not a promoter has run.
   *
   * @param state the state to list
   * @param limit jobs per page, 1 to 1000
   * @param cursor {@link JobPage#next()} of the previous page of the same state, or null
   * @return up to {@code limit} jobs, and the cursor of the next page unless this is the last
   * @throws InvalidArgumentException when the state is null, the limit out of range, or the cursor
   *     not one of a previous page of this state
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  JobPage<T> jobs(JobState state, int limit, String cursor);

  /**
   * {@link #jobs(JobState, int, String)} without blocking.
   *
   * @param state the state to list
   * @param limit jobs per page, 1 to 1000
   * @param cursor {@link JobPage#next()} of the previous page of the same state, or null
   * @return a future of the page; it fails with {@link RedisUnavailableException} when Redis cannot
   *     take the call
   * @throws InvalidArgumentException at once, when the state is null, the limit out of range, or
   *     the cursor not one of a previous page of this state
   */
  CompletableFuture<JobPage<T>> jobsAsync(JobState state, int limit, String cursor);

  /**
   * How many delayed jobs fall due within each horizon from now (server clock), e.g. {@code
   * dueWithin(List.of(Duration.ofMinutes(1), Duration.ofHours(1)))}; horizons ascending, 1 to 16 of
   * them. Jobs due within the next slot width count exactly; later ones are counted by their slot
   * lists, which keep a cancelled or rescheduled job's entry until the slot loads.
   *
   * @param horizons positive, ascending, at most 10 years
   * @return per horizon, the delayed jobs due within it (each count includes the shorter horizons')
   * @throws InvalidArgumentException when the horizons are not 1 to 16 ascending positive durations
   *     of at most 10 years
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  List<Long> dueWithin(List<Duration> horizons);

  /**
   * {@link #dueWithin(List)} without blocking.
   *
   * @param horizons positive, ascending, at most 10 years
   * @return a future of the count per horizon; it fails with {@link RedisUnavailableException} when
   *     Redis cannot take the call
   * @throws InvalidArgumentException at once, when the horizons are not 1 to 16 ascending positive
   *     durations of at most 10 years
   */
  CompletableFuture<List<Long>> dueWithinAsync(List<Duration> horizons);

  // ---- lifecycle ----

  /**
   * Pauses the queue: it keeps taking enqueues and keeping time, but claims (workers, long polls,
   * the server's push delivery) get no jobs until {@link #resume}. {@link QueueStats#paused()}
   * shows it. Jobs leased before the pause stay leased.
   *
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  void pause();

  /**
   * {@link #pause()} without blocking.
   *
   * @return a future that completes when every partition is paused; it fails with {@link
   *     RedisUnavailableException} when Redis cannot take the call (some partitions may be paused)
   */
  CompletableFuture<Void> pauseAsync();

  /**
   * Resumes a paused queue and wakes its consumers for the jobs that are ready.
   *
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  void resume();

  /**
   * {@link #resume()} without blocking.
   *
   * @return a future that completes when every partition is resumed; it fails with {@link
   *     RedisUnavailableException} when Redis cannot take the call (some partitions may be resumed)
   */
  CompletableFuture<Void> resumeAsync();

  /**
   * Deletes the queue (its settings, counters and keys) when it holds no job in any state, dead
   * included. A later use of the queue creates it again with defaults.
   *
   * @throws QueueNotEmptyException when it holds jobs; nothing is deleted
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  void delete();

  /**
   * {@link #delete()} without blocking.
   *
   * @return a future that completes when the queue is deleted; it fails with {@link
   *     QueueNotEmptyException} when the queue holds jobs (nothing is deleted), and with {@link
   *     RedisUnavailableException} when Redis cannot take the call
   */
  CompletableFuture<Void> deleteAsync();

  /**
   * Deletes the queue with all its jobs, whatever their state.
   *
   * @return how many jobs were deleted
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  long deleteWithJobs();

  /**
   * {@link #deleteWithJobs()} without blocking.
   *
   * @return a future of how many jobs were deleted; it fails with {@link RedisUnavailableException}
   *     when Redis cannot take the call
   */
  CompletableFuture<Long> deleteWithJobsAsync();

  // ---- consume ----

  /**
   * Starts a worker on this queue with default options ({@link WorkerOptions#defaults()}).
   *
   * @param handler called for each delivered job, on the worker's threads
   * @return the running worker; close it (or the client) to stop it
   * @throws InvalidArgumentException when the handler is null
   * @throws HourglassException when the client is closed
   */
  default Worker worker(JobHandler<T> handler) {
    return worker(handler, WorkerOptions.defaults());
  }

  /**
   * Starts a worker on this queue. Close it (or the client) to stop it.
   *
   * @param handler called for each delivered job, on the worker's threads
   * @param options concurrency, prefetch, lease extension and shutdown
   * @return the running worker
   * @throws InvalidArgumentException when the handler or the options are null
   * @throws HourglassException when the client is closed
   */
  Worker worker(JobHandler<T> handler, WorkerOptions options);

  /**
   * Leases up to {@code max} ready jobs without waiting, oldest due first within a partition (a
   * queue of several partitions is claimed from a rotating partition first). Runs the queue's
   * promoter in this process from the first call on, so due jobs keep becoming ready.
   *
   * @param max the most jobs to lease, 1 to 1000
   * @param visibility lease length for these deliveries, or null for each job's own
   * @return the deliveries, possibly none; settle each with its receipt before its lease ends
   * @throws InvalidArgumentException when {@code max} or the visibility is out of range
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  List<Delivery<T>> claim(int max, Duration visibility);

  /**
   * {@link #claim(int, Duration)} without blocking. Completing or cancelling the future before the
   * claim answers gives the claim up: what it leased is handed back at once (ready again, the
   * attempt not counted).
   *
   * @param max the most jobs to lease, 1 to 1000
   * @param visibility lease length for these deliveries, or null for each job's own
   * @return a future of the deliveries, possibly none; it fails with {@link
   *     RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, when {@code max} or the visibility is out of range
   */
  CompletableFuture<List<Delivery<T>>> claimAsync(int max, Duration visibility);

  /**
   * Like {@link #claim(int, Duration)}, but when nothing is ready waits up to {@code wait} for at
   * least one job (a long poll). Waiting callers share one blocking connection per partition in
   * this client, so many can wait at once; a wake-up from a producer or the promoter ends the wait
   * within a round trip. Returns an empty list when nothing came in time or the client closed.
   *
   * @param max the most jobs to lease, 1 to 1000
   * @param visibility lease length for these deliveries, or null for each job's own
   * @param wait 0 (do not wait) up to 1 h
   * @return the deliveries; empty when nothing came within {@code wait}
   * @throws InvalidArgumentException when {@code max}, the visibility or the wait is out of range
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  List<Delivery<T>> claim(int max, Duration visibility, Duration wait);

  /**
   * {@link #claim(int, Duration, Duration)} without blocking. Completing or cancelling the future
   * ends the wait; jobs leased for it after that are handed back at once (ready again, the attempt
   * not counted).
   *
   * @param max the most jobs to lease, 1 to 1000
   * @param visibility lease length for these deliveries, or null for each job's own
   * @param wait 0 (do not wait) up to 1 h
   * @return a future of the deliveries, of none when nothing came within {@code wait}; it fails
   *     with {@link RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, when {@code max}, the visibility or the wait is out
   *     of range
   */
  CompletableFuture<List<Delivery<T>>> claimAsync(int max, Duration visibility, Duration wait);

  /**
   * Finishes a delivery: the job is deleted.
   *
   * @param delivery a delivery this queue handed out
   * @throws StaleReceiptException when the receipt no longer holds the job
   * @throws JobNotFoundException when the job no longer exists
   * @throws InvalidArgumentException when the delivery is null
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  default void ack(Delivery<T> delivery) {
    ack(required(delivery).id(), delivery.receipt());
  }

  /**
   * {@link #ack(Delivery)} without blocking. Concurrent acks of one partition share script calls.
   *
   * @param delivery a delivery this queue handed out
   * @return a future that completes when the job is deleted; it fails with {@link
   *     StaleReceiptException} when the receipt no longer holds the job, with {@link
   *     JobNotFoundException} when the job no longer exists, and with {@link
   *     RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, when the delivery is null
   */
  default CompletableFuture<Void> ackAsync(Delivery<T> delivery) {
    return ackAsync(required(delivery).id(), delivery.receipt());
  }

  /**
   * {@link #ack(Delivery)} by the delivery's id and receipt (e.g. from another process).
   *
   * @param id the job id
   * @param receipt the delivery's receipt ({@link Delivery#receipt()})
   * @throws StaleReceiptException when the receipt no longer holds the job
   * @throws JobNotFoundException when the job no longer exists
   * @throws InvalidArgumentException when the id or the receipt is malformed
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  void ack(String id, String receipt);

  /**
   * {@link #ack(String, String)} without blocking. Concurrent acks of one partition share script
   * calls.
   *
   * @param id the job id
   * @param receipt the delivery's receipt ({@link Delivery#receipt()})
   * @return a future that completes when the job is deleted; it fails with {@link
   *     StaleReceiptException} when the receipt no longer holds the job, with {@link
   *     JobNotFoundException} when the job no longer exists, and with {@link
   *     RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, when the id or the receipt is malformed
   */
  CompletableFuture<Void> ackAsync(String id, String receipt);

  /**
   * Fails a delivery: the job is retried (by its backoff, from the delivery's attempt, or after the
   * nack's delay) or goes to dead.
   *
   * @param delivery a delivery this queue handed out
   * @param nack retry by backoff, retry after a delay, or kill; with the error text to keep
   * @return whether the job went dead, and its retry's due time or time of death
   * @throws StaleReceiptException when the receipt no longer holds the job
   * @throws JobNotFoundException when the job no longer exists
   * @throws InvalidArgumentException when the delivery or the nack is null
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  NackResult nack(Delivery<T> delivery, Nack nack);

  /**
   * {@link #nack(Delivery, Nack)} without blocking.
   *
   * @param delivery a delivery this queue handed out
   * @param nack retry by backoff, retry after a delay, or kill; with the error text to keep
   * @return a future of whether the job went dead, and its retry's due time or time of death; it
   *     fails with {@link StaleReceiptException} when the receipt no longer holds the job, with
   *     {@link JobNotFoundException} when the job no longer exists, and with {@link
   *     RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, when the delivery or the nack is null
   */
  CompletableFuture<NackResult> nackAsync(Delivery<T> delivery, Nack nack);

  /**
   * {@link #nack(Delivery, Nack)} by the delivery's id and receipt; a retry by backoff reads the
   * job's attempt count first.
   *
   * @param id the job id
   * @param receipt the delivery's receipt ({@link Delivery#receipt()})
   * @param nack retry by backoff, retry after a delay, or kill; with the error text to keep
   * @return whether the job went dead, and its retry's due time or time of death
   * @throws StaleReceiptException when the receipt no longer holds the job
   * @throws JobNotFoundException when the job no longer exists
   * @throws InvalidArgumentException when the id or the receipt is malformed, or the nack is null
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  NackResult nack(String id, String receipt, Nack nack);

  /**
   * {@link #nack(String, String, Nack)} without blocking.
   *
   * @param id the job id
   * @param receipt the delivery's receipt ({@link Delivery#receipt()})
   * @param nack retry by backoff, retry after a delay, or kill; with the error text to keep
   * @return a future of whether the job went dead, and its retry's due time or time of death; it
   *     fails with {@link StaleReceiptException} when the receipt no longer holds the job, with
   *     {@link JobNotFoundException} when the job no longer exists, and with {@link
   *     RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, when the id or the receipt is malformed, or the nack
   *     is null
   */
  CompletableFuture<NackResult> nackAsync(String id, String receipt, Nack nack);

  /**
   * Hands a delivery back unstarted: the job is ready again at once (in its place by due time) and
   * the attempt does not count, where a nack would spend it. For deliveries that never reached a
   * consumer, e.g. a claim answer that could not be written to its client.
   *
   * @param id the job id
   * @param receipt the delivery's receipt ({@link Delivery#receipt()})
   * @throws StaleReceiptException when the receipt no longer holds the job
   * @throws JobNotFoundException when the job no longer exists
   * @throws InvalidArgumentException when the id or the receipt is malformed
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  void release(String id, String receipt);

  /**
   * {@link #release(String, String)} without blocking.
   *
   * @param id the job id
   * @param receipt the delivery's receipt ({@link Delivery#receipt()})
   * @return a future that completes when the job is ready again; it fails with {@link
   *     StaleReceiptException} when the receipt no longer holds the job, with {@link
   *     JobNotFoundException} when the job no longer exists, and with {@link
   *     RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, when the id or the receipt is malformed
   */
  CompletableFuture<Void> releaseAsync(String id, String receipt);

  /**
   * Extends a lease to {@code visibility} from now.
   *
   * @param delivery a delivery this queue handed out
   * @param visibility the new lease length, from the Redis server's now
   * @return the new lease deadline
   * @throws StaleReceiptException when the receipt no longer holds the job
   * @throws JobNotFoundException when the job no longer exists
   * @throws InvalidArgumentException when the delivery is null or the visibility out of range
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  default Instant extend(Delivery<T> delivery, Duration visibility) {
    return extend(required(delivery).id(), delivery.receipt(), visibility);
  }

  /**
   * {@link #extend(Delivery, Duration)} without blocking.
   *
   * @param delivery a delivery this queue handed out
   * @param visibility the new lease length, from the Redis server's now
   * @return a future of the new lease deadline; it fails with {@link StaleReceiptException} when
   *     the receipt no longer holds the job, with {@link JobNotFoundException} when the job no
   *     longer exists, and with {@link RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, when the delivery is null or the visibility out of
   *     range
   */
  default CompletableFuture<Instant> extendAsync(Delivery<T> delivery, Duration visibility) {
    return extendAsync(required(delivery).id(), delivery.receipt(), visibility);
  }

  /**
   * {@link #extend(Delivery, Duration)} by the delivery's id and receipt.
   *
   * @param id the job id
   * @param receipt the delivery's receipt ({@link Delivery#receipt()})
   * @param visibility the new lease length, from the Redis server's now
   * @return the new lease deadline
   * @throws StaleReceiptException when the receipt no longer holds the job
   * @throws JobNotFoundException when the job no longer exists
   * @throws InvalidArgumentException when the id or the receipt is malformed, or the visibility out
   *     of range
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  Instant extend(String id, String receipt, Duration visibility);

  /**
   * {@link #extend(String, String, Duration)} without blocking.
   *
   * @param id the job id
   * @param receipt the delivery's receipt ({@link Delivery#receipt()})
   * @param visibility the new lease length, from the Redis server's now
   * @return a future of the new lease deadline; it fails with {@link StaleReceiptException} when
   *     the receipt no longer holds the job, with {@link JobNotFoundException} when the job no
   *     longer exists, and with {@link RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, when the id or the receipt is malformed, or the
   *     visibility out of range
   */
  CompletableFuture<Instant> extendAsync(String id, String receipt, Duration visibility);

  private static <D extends Delivery<?>> D required(D delivery) {
    if (delivery == null) {
      throw new InvalidArgumentException("delivery", "is required");
    }
    return delivery;
  }
}
