package dev.hourglass;

/** A refusal about one job of one queue; says which. Nothing was changed. */
public abstract class JobException extends HourglassException {
  private static final long serialVersionUID = 1L;
  private final String queue;
  private final String id;

  protected JobException(String queue, String id, String message) {
    super(message);
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
