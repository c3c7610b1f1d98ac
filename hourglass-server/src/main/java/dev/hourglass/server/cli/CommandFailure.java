package dev.hourglass.server.cli;

/**
 * A client command failed in a way the user can act on; {@link ErrorReporter} prints {@code error:
 * <message>} and exits with {@link #exitCode()}.
 */
final class CommandFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int exitCode;

  CommandFailure(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  CommandFailure(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  /** One of {@link ExitCodes}. */
  int exitCode() {
    return exitCode;
  }
}
