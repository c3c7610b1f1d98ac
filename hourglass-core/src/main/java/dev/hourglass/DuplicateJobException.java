package dev.hourglass;

/**
 * A live job (delayed, ready, inflight or dead) already has this id. Nothing was written. Use
 * {@link Queue#enqueueIfAbsent(JobSpec)} to be told instead of thrown at.
 */
public class DuplicateJobException extends JobException {
  private static final long serialVersionUID = 1L;

  /**
   * A duplicate of a live job.
   *
   * @param queue the queue
   * @param id the id a live job already has
   */
  public DuplicateJobException(String queue, String id) {
    super(queue, id, "queue " + queue + " already has a live job with id " + id);
  }
}
