package dev.hourglass.server.cli;

/**
 * A client command failed in a way the user can act on; {@link ErrorReporter} prints {@code error:
 * <message>} and exits with {@link #exitCode()}.
 */
final class CommandFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int exitCode;
  private final String serverCode;

  CommandFailure(int exitCode, String message) {
    this(exitCode, message, (Throwable) null);
  }

  CommandFailure(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
    this.serverCode = "";
  }

  /** The server refused the request: its answer's {@code error.code} is {@code serverCode}. */
  CommandFailure(int exitCode, String serverCode, String message) {
    super(message);
    this.exitCode = exitCode;
    this.serverCode = serverCode;
  }

  /** One of {@link ExitCodes}. */
  int exitCode() {
    return exitCode;
  }

  /** The {@code error.code} of the server's answer, or "" when the failure is not one. */
  String serverCode() {
    return serverCode;
  }
}
