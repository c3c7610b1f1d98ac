package dev.hourglass;

/**
 * The receipt no longer holds the job: its lease expired and the job went back to ready, was leased
 * again, retried or killed. The caller's work on this delivery must not be acknowledged; another
 * delivery owns the job now.
 */
public class StaleReceiptException extends JobException {
  private static final long serialVersionUID = 1L;

  /**
   * A stale receipt.
   *
   * @param queue the queue
   * @param id the job the receipt was for
   */
  public StaleReceiptException(String queue, String id) {
    super(
        queue,
        id,
        "receipt for job "
            + id
            + " in queue "
            + queue
            + " is stale: the lease expired or moved on");
  }
}
