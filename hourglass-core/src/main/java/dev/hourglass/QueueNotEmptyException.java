package dev.hourglass;

/** A queue to delete still holds jobs; nothing was deleted. {@link Queue#deleteWithJobs} forces. */
public class QueueNotEmptyException extends HourglassException {
  private final String queue;
  private final long jobs;

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

  public String queue() {
    return queue;
  }

  /** How many jobs the queue held, in any state. */
  public long jobs() {
    return jobs;
  }
}
