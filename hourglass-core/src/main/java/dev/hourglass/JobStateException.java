package dev.hourglass;

/**
 * The job exists but its state forbids the operation: cancelling or rescheduling a leased
 * (inflight) job, which its consumer settles, rescheduling a dead job, which must be requeued
 * instead, or requeueing a job that is not dead.
 */
public class JobStateException extends JobException {
  private static final long serialVersionUID = 1L;
  private final JobState state;

  public JobStateException(String queue, String id, JobState state, String operation) {
    super(
        queue,
        id,
        "cannot " + operation + " job " + id + " in queue " + queue + ": it is " + state.label());
    this.state = state;
  }

  /** The state that refused the operation. */
  public JobState state() {
    return state;
  }
}
