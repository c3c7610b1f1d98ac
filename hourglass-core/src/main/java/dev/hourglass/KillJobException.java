package dev.hourglass;

/** Thrown by a {@link JobHandler} to send the job to dead at once, without further retries. */
public class KillJobException extends HourglassException {
  private static final long serialVersionUID = 1L;

  /**
   * Sends the job to dead with this message as its last error.
   *
   * @param message the reason, kept as the job's last error
   */
  public KillJobException(String message) {
    super(message);
  }

  /**
   * Sends the job to dead with this message as its last error.
   *
   * @param message the reason, kept as the job's last error
   * @param cause the failure that made the job hopeless
   */
  public KillJobException(String message, Throwable cause) {
    super(message, cause);
  }
}
