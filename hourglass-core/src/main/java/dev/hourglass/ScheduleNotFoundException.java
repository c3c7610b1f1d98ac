package dev.hourglass;

/** The queue has no schedule of this id. */
public class ScheduleNotFoundException extends HourglassException {
  private static final long serialVersionUID = 1L;

  /** The queue. */
  private final String queue;

  /** The schedule id. */
  private final String id;

  /**
   * No such schedule.
   *
   * @param queue the queue
   * @param id the schedule id
   */
  public ScheduleNotFoundException(String queue, String id) {
    super("queue " + queue + " has no schedule with id " + id);
    this.queue = queue;
    this.id = id;
  }

  /**
   * @return the queue
   */
  public String queue() {
    return queue;
  }

  /**
   * @return the schedule id
   */
  public String id() {
    return id;
  }
}
