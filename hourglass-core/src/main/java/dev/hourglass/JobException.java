package dev.hourglass;

/** A refusal about one job of one queue; says which. Nothing was changed. */
public abstract class JobException extends HourglassException {
  private static final long serialVersionUID = 1L;

  /** The queue of the job. */
  private final String queue;

  /** The job's id. */
  private final String id;

  /**
   * A refusal about one job.
   *
   * @param queue the queue of the job
   * @param id the job's id
   * @param message what was refused, naming both
   */
  protected JobException(String queue, String id, String message) {
    super(message);
    this.queue = queue;
    this.id = id;
  }

  /**
   * The queue of the job.
   *
   * @return its name
   */
  public String queue() {
    return queue;
  }

  /**
   * The job's id.
   *
   * @return the id
   */
  public String id() {
    return id;
  }
}
