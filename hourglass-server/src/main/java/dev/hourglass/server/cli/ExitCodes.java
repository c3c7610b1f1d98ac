package dev.hourglass.server.cli;

/**
 * The exit codes of the {@code hourglass} client commands, which scripts may rely on. {@link #HELP}
 * documents them in every command's help footer.
 */
public final class ExitCodes {
  /** The command did what was asked. */
  public static final int OK = 0;

  /** Any other server error: a 4xx not listed below, a 5xx, {@code internal}. */
  public static final int SERVER_ERROR = 1;

  /**
   * Bad usage: unknown or malformed option, queue name the server would refuse, payload that is not
   * JSON, refused confirmation.
   */
  public static final int USAGE = 2;

  /** The server answered 404: no such job, queue or dead job, or no archive. */
  public static final int NOT_FOUND = 3;

  /**
   * The server answered 409: duplicate_id, stale_receipt, job_inflight, job_state, queue_not_empty.
   */
  public static final int CONFLICT = 4;

  /** The server could not be reached (refused, timed out) or answered 503 (Redis or archive). */
  public static final int UNAVAILABLE = 5;

  /** The server answered 401 or 403: missing, wrong or insufficient token. */
  public static final int UNAUTHORIZED = 6;

  /** The exit code table as a picocli help footer section of a client command. */
  public static final String HELP = "%nExit codes:%n" + ExitCodes.TABLE;

  /** The exit code table as the launcher's help footer, which also lists {@code server}. */
  public static final String LAUNCHER_HELP =
      "%nExit codes of the client commands (server has its own, see its --help):%n"
          + ExitCodes.TABLE;

  private static final String TABLE =
      "  0  success%n"
          + "  1  other server error (4xx not listed here, 5xx, internal)%n"
          + "  2  usage error (bad option, queue name or payload; not confirmed)%n"
          + "  3  not found (404; also archive_not_configured)%n"
          + "  4  conflict (409: duplicate_id, stale_receipt, job_inflight, job_state,"
          + " queue_not_empty)%n"
          + "  5  server unreachable or timed out, or unavailable (503: Redis or the archive)%n"
          + "  6  unauthorized or forbidden (401, 403)";

  private ExitCodes() {}

  /**
   * The exit code for an error answer of the server.
   *
   * @param status the HTTP status, 400 or above
   * @param code the {@code error.code} of the answer's body
   */
  static int forServerError(int status, String code) {
    if (status == 503 || "redis_unavailable".equals(code)) {
      return UNAVAILABLE;
    }
    return switch (status) {
      case 401, 403 -> UNAUTHORIZED;
      case 404 -> NOT_FOUND;
      case 409 -> CONFLICT;
      default -> SERVER_ERROR;
    };
  }
}
