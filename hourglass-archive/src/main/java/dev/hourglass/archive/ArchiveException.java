package dev.hourglass.archive;

/** The archive's database could not be reached or refused a statement. */
public final class ArchiveException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * A failed database step; the message is {@code doing + " failed: " + cause's message}.
   *
   * @param doing what the archive was doing, e.g. {@code "migrating the archive's schema"}
   * @param cause the database's failure
   */
  public ArchiveException(String doing, Throwable cause) {
    super(doing + " failed: " + cause.getMessage(), cause);
  }
}
