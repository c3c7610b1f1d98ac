package dev.hourglass;

/** Thrown by a {@link JobHandler} to send the job to dead at once, without further retries. */
public class KillJobException extends HourglassException {
  private static final long serialVersionUID = 1L;

  public KillJobException(String message) {
    super(message);
  }

  public KillJobException(String message, Throwable cause) {
    super(message, cause);
  }
}
