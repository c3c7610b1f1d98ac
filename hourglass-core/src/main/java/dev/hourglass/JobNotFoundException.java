package dev.hourglass;

/**
 * No job with this id lives in the queue (never enqueued, or already acked, cancelled, expired or
 * purged).
 */
public class JobNotFoundException extends JobException {
  private static final long serialVersionUID = 1L;

  /**
   * No such job.
   *
   * @param queue the queue
   * @param id the id no live job has
   */
  public JobNotFoundException(String queue, String id) {
    super(queue, id, "queue " + queue + " has no job with id " + id);
  }
}
