package dev.hourglass;

import java.util.concurrent.CompletableFuture;

/**
 * The dead jobs of one queue: inspect, requeue, purge. Each operation has an async twin; bad
 * arguments are thrown at once, Redis failures fail the future.
 *
 * @param <T> the payload type of the queue handle
 */
public interface DeadLetters<T> {

  /**
   * One page of dead jobs, oldest death first across partitions.
   *
   * @param cursor null for the first page, else {@link JobPage#next()} of the previous page
   * @param limit 1..1000 jobs
   * @return up to {@code limit} dead jobs, and the cursor of the next page unless this is the last
   * @throws InvalidArgumentException when the limit is out of range or the cursor is not one of a
   *     previous page of dead jobs
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  JobPage<T> list(String cursor, int limit);

  /**
   * {@link #list} without blocking.
   *
   * @param cursor null for the first page, else {@link JobPage#next()} of the previous page
   * @param limit 1..1000 jobs
   * @return a future of the page; it fails with {@link RedisUnavailableException} when Redis cannot
   *     take the call
   * @throws InvalidArgumentException at once, when the limit is out of range or the cursor is not
   *     one of a previous page of dead jobs
   */
  CompletableFuture<JobPage<T>> listAsync(String cursor, int limit);

  /**
   * Moves one dead job back to ready with its attempts reset; its last error is kept.
   *
   * @param id the job id
   * @throws JobNotFoundException when no job has this id
   * @throws JobStateException when the job lives but is not dead, naming its state
   * @throws InvalidArgumentException when the id is not a valid job id
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  void requeue(String id);

  /**
   * {@link #requeue} without blocking.
   *
   * @param id the job id
   * @return a future that completes once the job is ready again; it fails with {@link
   *     JobNotFoundException} when no dead job has this id, and with {@link
   *     RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, when the id is not a valid job id
   */
  CompletableFuture<Void> requeueAsync(String id);

  /**
   * Requeues every dead job. Works in chunks, so it is safe on large dead sets; jobs that die
   * meanwhile may be requeued too.
   *
   * @return how many jobs were requeued
   * @throws RedisUnavailableException when Redis cannot take a chunk; the chunks before it are done
   */
  long requeueAll();

  /**
   * {@link #requeueAll} without blocking.
   *
   * @return a future of how many jobs were requeued; it fails with {@link
   *     RedisUnavailableException} when Redis cannot take a chunk (the chunks before it are done)
   */
  CompletableFuture<Long> requeueAllAsync();

  /**
   * Deletes every dead job, in chunks.
   *
   * @return how many jobs were deleted
   * @throws RedisUnavailableException when Redis cannot take a chunk; the chunks before it are done
   */
  long purge();

  /**
   * {@link #purge} without blocking.
   *
   * @return a future of how many jobs were deleted; it fails with {@link RedisUnavailableException}
   *     when Redis cannot take a chunk (the chunks before it are done)
   */
  CompletableFuture<Long> purgeAsync();

  /**
   * How many dead jobs there are (the queue's stats, one script call per partition).
   *
   * @return the count now
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  long count();

  /**
   * {@link #count} without blocking.
   *
   * @return a future of the count; it fails with {@link RedisUnavailableException} when Redis
   *     cannot take the call
   */
  CompletableFuture<Long> countAsync();
}
