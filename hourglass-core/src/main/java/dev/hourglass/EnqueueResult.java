package dev.hourglass;

import java.time.Instant;

/**
 * The outcome of one enqueue.
 *
 * @param id the job id (generated when the spec had none)
 * @param queue the queue name
 * @param state {@code READY} when due at once, else {@code DELAYED}; on a duplicate, the existing
 *     job's state
 * @param runAt the due time by the Redis server clock (the existing job's on a duplicate)
 * @param created false when a live job already had this id and nothing was written
 */
public record EnqueueResult(
    String id, String queue, JobState state, Instant runAt, boolean created) {
  /**
   * True when nothing was written because a live job already had this id.
   *
   * @return {@code !created()}
   */
  public boolean duplicate() {
    return !created;
  }
}
