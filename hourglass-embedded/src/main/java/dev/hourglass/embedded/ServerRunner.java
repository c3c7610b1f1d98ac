package dev.hourglass.embedded;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Starts and stops the {@code redis-server} process of one {@link RedisServer} as its settings say.
 *
 * <p>A start returns once the process answers {@code PING} as itself, not as another server that
 * happens to own the port; a failed start kills the process and throws with what went wrong, the
 * command line and the tails of the server's log and captured output. A stop asks the server to
 * shut down and kills it if it does not. Stateless beyond its settings; the owning {@link
 * RedisServer} serialises starts and stops.
 */
final class ServerRunner {

  /** A process that answers on its port. */
  record Started(RedisProcess process, int port) {}

  private static final System.Logger LOG = System.getLogger(ServerRunner.class.getName());

  /**
   * Connect and read timeout of one readiness probe. Short, because a port held by a plain socket
   * accepts the connection and never answers; a slow probe simply counts as "not ready yet".
   */
  private static final Duration PROBE_TIMEOUT = Duration.ofMillis(250);

  private static final Duration POLL_INTERVAL = Duration.ofMillis(10);
  private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
  private static final int PORT_ATTEMPTS = 5;
  private static final int LOG_TAIL_LINES = 30;
  private static final Pattern PROCESS_ID = Pattern.compile("(?m)^process_id:(\\d+)\\s*$");

  private final ServerSettings settings;

  ServerRunner(ServerSettings settings) {
    this.settings = settings;
  }

  /**
   * Starts the server on {@code port}, or when that is 0 on a port from the settings' chooser,
   * choosing another one when the port was taken between probing and binding.
   *
   * @throws RedisServerException if the server does not start (on a given port: also if it is
   *     taken), or no chosen port was free in 5 attempts, or the binary cannot read the AOF in the
   *     data directory ({@link ServerSettings#checkAofReadable()})
   */
  Started start(int port) {
    settings.checkAofReadable();
    if (port != 0) {
      return new Started(launch(port), port);
    }
    PortInUseException lastConflict = null;
    for (int attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
      int candidate = settings.portChooser().getAsInt();
      try {
        return new Started(launch(candidate), candidate);
      } catch (PortInUseException e) {
        LOG.log(Level.DEBUG, "Port " + candidate + " was taken, trying another one", e);
        lastConflict = e;
      }
    }
    throw new RedisServerException(
        "redis-server found no free port in " + PORT_ATTEMPTS + " attempts", lastConflict);
  }

  /**
   * Starts the server on {@code port}.
   *
   * @throws PortInUseException if another process holds the port
   * @throws RedisServerException if the server does not start for another reason
   */
  private RedisProcess launch(int port) {
    Path log = settings.logFile();
    Path output = settings.outputFile();
    long logOffset = LogTail.size(log);
    long outputOffset = LogTail.size(output);
    List<String> command = settings.commandLine(port);
    RedisProcess started;
    try {
      started = RedisProcess.start(command, settings.dataDir(), output, settings.killAtExit());
    } catch (IOException e) {
      throw new RedisServerException("Cannot run " + String.join(" ", command), e);
    }
    String failure;
    try {
      failure = awaitReady(started, port);
    } catch (RuntimeException e) {
      started.kill();
      throw e;
    }
    if (failure == null) {
      LOG.log(Level.DEBUG, "Started redis-server on port {0} as pid {1}", port, started.pid());
      return started;
    }
    started.kill();
    String message =
        "redis-server on port "
            + port
            + " did not start: "
            + failure
            + "\ncommand: "
            + String.join(" ", command)
            + "\n--- "
            + log
            + " ---\n"
            + LogTail.read(log, logOffset, LOG_TAIL_LINES)
            + "--- "
            + output
            + " ---\n"
            + LogTail.read(output, outputOffset, LOG_TAIL_LINES);
    if (message.contains("Address already in use")) {
      throw new PortInUseException(message);
    }
    throw new RedisServerException(message);
  }

  /**
   * Stops {@code stopping}, listening on {@code port}, gracefully and waits for it to exit: {@code
   * SHUTDOWN NOSAVE} for an in-memory server, {@code SIGTERM} (which flushes and fsyncs the AOF)
   * for a persistent one. A server that does not exit within 10 seconds is killed; so is one whose
   * stop fails or is interrupted.
   */
  void stop(RedisProcess stopping, int port) {
    try {
      if (!stopping.isAlive()) {
        return;
      }
      // A paused (SIGSTOPped) server would ignore SHUTDOWN and SIGTERM until continued.
      ProcessSignals.cont(stopping.pid());
      if (settings.persistent()) {
        stopping.terminate();
      } else {
        shutdownNoSave(stopping, port);
      }
      if (!stopping.awaitExit(STOP_TIMEOUT)) {
        LOG.log(
            Level.WARNING,
            "redis-server on port {0} ignored shutdown for {1}; killing it",
            port,
            STOP_TIMEOUT);
      }
    } finally {
      // A no-op SIGKILL once it has exited; otherwise (timeout, interrupt, failure) it ends it
      // here.
      stopping.kill();
    }
  }

  private static void shutdownNoSave(RedisProcess stopping, int port) {
    try {
      RespClient.callExpectingClose(RedisServer.HOST, port, SHUTDOWN_TIMEOUT, "SHUTDOWN", "NOSAVE");
    } catch (IOException | RedisCommandException e) {
      LOG.log(
          Level.WARNING,
          "SHUTDOWN NOSAVE failed on redis-server port " + port + "; sending SIGTERM",
          e);
      stopping.terminate();
    }
  }

  /** Polls until the server answers PING; returns null when ready, or why it is not. */
  private String awaitReady(RedisProcess started, int port) {
    Duration timeout = settings.startupTimeout();
    long deadline = System.nanoTime() + timeout.toNanos();
    String lastProblem = "no connection attempt yet";
    while (true) {
      if (!started.isAlive()) {
        return "the process exited with code " + started.exitValue();
      }
      if (System.nanoTime() - deadline > 0) {
        return "no PONG within " + timeout + " (last problem: " + lastProblem + ")";
      }
      try {
        String reply = RespClient.call(RedisServer.HOST, port, PROBE_TIMEOUT, "PING");
        if (!"PONG".equals(reply)) {
          return "PING was answered with " + reply;
        }
        long answeringPid = serverPid(port);
        if (answeringPid == started.pid()) {
          return null;
        }
        // Another server owns the port; ours will exit with "Address already in use".
        lastProblem = "port " + port + " is answered by another redis-server, pid " + answeringPid;
      } catch (RedisCommandException e) {
        if (!e.errorReply().startsWith("LOADING")) {
          return "PING was answered with the error " + e.errorReply();
        }
        lastProblem = e.errorReply();
      } catch (IOException e) {
        lastProblem = e.toString(); // Not listening yet: expected while the server boots.
      }
      RedisProcess.sleep(POLL_INTERVAL);
    }
  }

  private static long serverPid(int port) throws IOException {
    String info = RespClient.call(RedisServer.HOST, port, PROBE_TIMEOUT, "INFO", "server");
    Matcher matcher = PROCESS_ID.matcher(info == null ? "" : info);
    if (!matcher.find()) {
      throw new IOException("INFO server has no process_id: " + info);
    }
    return Long.parseLong(matcher.group(1));
  }
}
