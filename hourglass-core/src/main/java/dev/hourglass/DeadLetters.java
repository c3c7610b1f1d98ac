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
   * One page of dead jobs.
   *
   * @param cursor null for the first page, else {@link JobPage#next()} of the previous page
   * @param limit 1..1000 jobs
   */
  JobPage<T> list(String cursor, int limit);

  CompletableFuture<JobPage<T>> listAsync(String cursor, int limit);

  /**
   * Moves one dead job back to ready with its attempts reset; its last error is kept.
   *
   * @throws JobNotFoundException when no job has this id
   * @throws JobStateException when the job lives but is not dead, naming its state
   */
  void requeue(String id);

  CompletableFuture<Void> requeueAsync(String id);

  /**
   * Requeues every dead job; returns how many. Works in chunks, so it is safe on large dead sets.
   */
  long requeueAll();

  CompletableFuture<Long> requeueAllAsync();

  /** Deletes every dead job; returns how many. */
  long purge();

  CompletableFuture<Long> purgeAsync();

  /** How many dead jobs there are. */
  long count();

  CompletableFuture<Long> countAsync();
}
