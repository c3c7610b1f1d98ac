package dev.hourglass;

/** A queue to delete still holds jobs; nothing was deleted. {@link Queue#deleteWithJobs} forces. */
public class QueueNotEmptyException extends HourglassException {
  /** The queue that was not deleted. */
  private final String queue;

  /** Its jobs in any state when it refused. */
  private final long jobs;

  /**
   * A refused delete.
   *
   * @param queue the queue
   * @param jobs its jobs in any state
   */
  public QueueNotEmptyException(String queue, long jobs) {
    super(
        "queue "
            + queue
            + " holds "
            + jobs
            + (jobs == 1 ? " job" : " jobs")
            + " (dead ones included); delete them first, or delete the queue with its jobs");
    this.queue = queue;
    this.jobs = jobs;
  }

  /**
   * The queue that was not deleted.
   *
   * @return its name
   */
  public String queue() {
    return queue;
  }

  /**
   * How many jobs the queue held, in any state.
   *
   * @return the count when the delete was refused
   */
  public long jobs() {
    return jobs;
  }
}
