package dev.hourglass;

/**
 * A live job (delayed, ready, inflight or dead) already has this id. Nothing was written. Use
 * {@link Queue#enqueueIfAbsent(JobSpec)} to be told instead of thrown at.
 */
public class DuplicateJobException extends HourglassException {
  private static final long serialVersionUID = 1L;
  private final String queue;
  private final String id;

  public DuplicateJobException(String queue, String id) {
    super("queue " + queue + " already has a live job with id " + id);
    this.queue = queue;
    this.id = id;
  }

  public String queue() {
    return queue;
  }

  public String id() {
    return id;
  }
}
