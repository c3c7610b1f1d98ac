package dev.hourglass.archive;

/** The archive's database could not be reached or refused a statement. */
public final class ArchiveException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ArchiveException(String doing, Throwable cause) {
    super(doing + " failed: " + cause.getMessage(), cause);
  }
}
