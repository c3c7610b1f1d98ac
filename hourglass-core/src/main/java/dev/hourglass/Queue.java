package dev.hourglass;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A handle on one queue: produce, inspect, and consume at the low level. Thread-safe; cheap to
 * keep. Each method is one Lua script on the job's partition (O(log N) in the queue's size), unless
 * it says otherwise.
 */
public interface Queue {

  /** The queue name. */
  String name();

  /**
   * Enqueues a job.
   *
   * @throws DuplicateJobException when a live job already has the spec's id (nothing is written)
   * @throws PayloadTooLargeException when the payload is over the client's limit
   */
  EnqueueResult enqueue(JobSpec spec);

  /**
   * Enqueues a UTF-8 payload due after {@code delay}, with a generated id and the queue's defaults.
   */
  default EnqueueResult enqueue(String payload, Duration delay) {
    return enqueue(JobSpec.of(payload, delay));
  }

  /**
   * Like {@link #enqueue(JobSpec)}, but a duplicate id is reported ({@link EnqueueResult#created()}
   * false).
   */
  EnqueueResult enqueueIfAbsent(JobSpec spec);

  /**
   * Enqueues without waiting. The future fails with {@link DuplicateJobException} or {@link
   * RedisUnavailableException}; validation errors are thrown at once. Concurrent calls share script
   * calls, and calls not yet completed may reach Redis in any order: wait for the future when one
   * enqueue must land before another.
   */
  CompletableFuture<EnqueueResult> enqueueAsync(JobSpec spec);

  /**
   * Enqueues many jobs in few round trips: one script call per partition per chunk of up to 500
   * jobs, pipelined. Every spec is validated before anything is sent. Duplicates are reported per
   * job, in request order, not thrown. Jobs of one chunk are written atomically; chunks are
   * independent.
   */
  List<EnqueueResult> enqueueAll(List<JobSpec> specs);

  /**
   * Like {@link #enqueueAll(List)} without waiting, so a producer can keep several batches in
   * flight. Every spec is validated, and bad input thrown, before anything is sent; Redis failures
   * fail the future.
   */
  CompletableFuture<List<EnqueueResult>> enqueueAllAsync(List<JobSpec> specs);

  /** The job, or empty when no live job has this id. */
  Optional<JobInfo> get(String id);

  /**
   * Removes a delayed, ready or dead job.
   *
   * @return true when removed, false when no such job exists
   * @throws JobStateException when the job is inflight (its consumer settles it)
   */
  boolean cancel(String id);

  /**
   * Gives a delayed or ready job a new due time, {@code delay} from the Redis server's now.
   *
   * @throws JobNotFoundException when no such job exists
   * @throws JobStateException when the job is inflight or dead
   */
  JobInfo reschedule(String id, Duration delay);

  /** Like {@link #reschedule(String, Duration)} with an absolute due time (the past means now). */
  JobInfo reschedule(String id, Instant runAt);

  /**
   * Leases up to {@code max} ready jobs without waiting, oldest due first within a partition (a
   * queue of several partitions is claimed from a rotating partition first). Runs the queue's
   * promoter in this process from the first call on, so due jobs keep becoming ready.
   *
   * @param visibility lease length for these deliveries, or null for each job's own
   */
  List<Delivery> claim(int max, Duration visibility);

  /**
   * Like {@link #claim(int, Duration)}, but when nothing is ready waits up to {@code wait} for at
   * least one job (a long poll). Waiting callers share one blocking connection per partition in
   * this client, so many can wait at once; a wake-up from a producer or the promoter ends the wait
   * within a round trip. Returns an empty list when nothing came in time or the client closed.
   *
   * @param wait 0 (do not wait) up to 1 h
   */
  List<Delivery> claim(int max, Duration visibility, Duration wait);

  /**
   * {@link #claim(int, Duration, Duration)} without blocking the caller: the future completes when
   * jobs arrive or the wait ends. Bad arguments are thrown at once; Redis failures fail the future.
   * Cancelling the future ends the wait; jobs leased for it after that are handed back at once.
   */
  CompletableFuture<List<Delivery>> claimAsync(int max, Duration visibility, Duration wait);

  /**
   * Finishes a delivery: the job is deleted.
   *
   * @throws StaleReceiptException when the receipt no longer holds the job
   * @throws JobNotFoundException when the job no longer exists
   */
  void ack(String id, String receipt);

  /**
   * Fails a delivery: the job is retried (by its backoff or the given delay) or goes to dead.
   *
   * @throws StaleReceiptException when the receipt no longer holds the job
   * @throws JobNotFoundException when the job no longer exists
   */
  NackResult nack(String id, String receipt, Nack nack);

  /**
   * Extends a lease to {@code visibility} from now.
   *
   * @return the new lease deadline
   * @throws StaleReceiptException when the receipt no longer holds the job
   */
  Instant extend(String id, String receipt, Duration visibility);

  /**
   * Runs one promotion pass over every partition now: jobs due within the next slot or two are
   * loaded from their slot lists, expired leases come back, jobs past their ttl and dead jobs past
   * retention are deleted, and consumers are woken for the jobs that fell due. A loaded job turns
   * ready when its due time passes, by the server clock, with or without a pass. The background
   * promoter does this by itself; this call is for tests and for clients built with {@link
   * HourglassBuilder#backgroundPromoter(boolean) no promoter}.
   *
   * @return jobs the pass made ready: expired leases returned, and jobs that were already due when
   *     their slot was loaded; 0 for a partition whose promoter lock another client holds
   */
  long promote();

  /** The dead-letter queue. */
  DeadLetters dead();

  /** Counts per state and counters, summed over partitions (one script call per partition). */
  QueueStats stats();

  /**
   * The queue's settings as stored in Redis now (one read; creates the queue with the client's
   * defaults when it does not exist yet). Operations use a copy refreshed every 30 s, so a change
   * made through another client applies here within 30 s.
   */
  QueueSettings settings();
}
