package dev.hourglass;

/** The dead jobs of one queue: inspect, requeue, purge. */
public interface DeadLetters {

  /**
   * One page of dead jobs.
   *
   * @param cursor null for the first page, else {@link DeadPage#next()} of the previous page
   * @param limit 1..1000 jobs
   */
  DeadPage list(String cursor, int limit);

  /**
   * Moves one dead job back to ready with its attempts reset; its last error is kept.
   *
   * @throws JobNotFoundException when no dead job has this id
   */
  void requeue(String id);

  /**
   * Requeues every dead job; returns how many. Works in chunks, so it is safe on large dead sets.
   */
  long requeueAll();

  /** Deletes every dead job; returns how many. */
  long purge();

  /** How many dead jobs there are. */
  long count();
}
