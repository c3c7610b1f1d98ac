package dev.hourglass;

/**
 * The job exists but its state forbids the operation: cancelling or rescheduling a leased
 * (inflight) job, which its consumer settles, rescheduling a dead job, which must be requeued
 * instead, or requeueing a job that is not dead.
 */
public class JobStateException extends JobException {
  private static final long serialVersionUID = 1L;

  /** The state that refused the operation. */
  private final JobState state;

  /**
   * A refusal by state.
   *
   * @param queue the queue of the job
   * @param id the job's id
   * @param state its state
   * @param operation what was refused, e.g. {@code "cancel"}
   */
  public JobStateException(String queue, String id, JobState state, String operation) {
    super(
        queue,
        id,
        "cannot " + operation + " job " + id + " in queue " + queue + ": it is " + state.label());
    this.state = state;
  }

  /**
   * The state that refused the operation.
   *
   * @return {@link JobState#INFLIGHT} or {@link JobState#DEAD}
   */
  public JobState state() {
    return state;
  }
}
