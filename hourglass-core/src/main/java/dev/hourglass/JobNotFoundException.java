package dev.hourglass;

/**
 * No job with this id lives in the queue (never enqueued, or already acked, cancelled, expired or
 * purged).
 */
public class JobNotFoundException extends HourglassException {
  private static final long serialVersionUID = 1L;
  private final String queue;
  private final String id;

  public JobNotFoundException(String queue, String id) {
    super("queue " + queue + " has no job with id " + id);
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
