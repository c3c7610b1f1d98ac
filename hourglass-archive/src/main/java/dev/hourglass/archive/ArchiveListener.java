package dev.hourglass.archive;

/**
 * What the archiver reports, for metrics. Called on the archiver's thread: return quickly. The
 * outbox's own length is read with {@link Archive#outboxSizes()}.
 */
public interface ArchiveListener {
  /** Rows of one queue stored in the database (committed; records stored again count too). */
  default void archived(String queue, int rows) {}

  /** A pass of the archiver or of the retention failed; it retries with backoff. */
  default void failed(Exception cause) {}

  /** Rows deleted by the retention. */
  default void expired(int rows) {}

  /** A listener that does nothing. */
  static ArchiveListener none() {
    return new ArchiveListener() {};
  }
}
