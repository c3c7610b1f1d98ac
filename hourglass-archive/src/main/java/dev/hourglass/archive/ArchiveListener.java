package dev.hourglass.archive;

/**
 * What the archiver reports, for metrics. Called on the archiver's thread: return quickly. The
 * outbox's own length is read with {@link Archive#outboxSizes()}.
 */
public interface ArchiveListener {
  /**
   * Rows of one queue stored in the database (committed; records stored again count too).
   *
   * @param queue the queue name
   * @param rows how many rows the transaction stored
   */
  default void archived(String queue, int rows) {}

  /**
   * A pass of the archiver or of the retention failed; it retries with backoff.
   *
   * @param cause what failed
   */
  default void failed(Exception cause) {}

  /**
   * Rows deleted by the retention.
   *
   * @param rows how many rows one pass deleted
   */
  default void expired(int rows) {}

  /**
   * A listener that does nothing.
   *
   * @return a new no-op listener
   */
  static ArchiveListener none() {
    return new ArchiveListener() {};
  }
}
