package dev.hourglass.embedded;

import java.io.File;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One running {@code redis-server} process plus the watchdog that kills it if this JVM dies.
 *
 * <p>The {@link Watchdog} sends the server {@code SIGKILL} within about a second of this JVM dying,
 * which covers the case the JVM shutdown hook cannot: the JVM being killed with {@code SIGKILL}.
 * Unless the owner stops the server itself at exit ({@code killAtExit} false), both processes are
 * registered with {@link ShutdownCleanup} from birth until they have exited.
 *
 * <p>Threading: methods may be called from any thread; the owning {@link RedisServer} serialises
 * lifecycle calls. The shutdown hook works on the registered {@link Process}es directly.
 */
final class RedisProcess {
  private static final System.Logger LOG = System.getLogger(RedisProcess.class.getName());
  private static final File DEV_NULL = new File("/dev/null");
  private static final int TEXT_FILE_BUSY_RETRIES = 5;

  private final Process redis;
  private final Process watchdog;

  private RedisProcess(Process redis, Process watchdog) {
    this.redis = redis;
    this.watchdog = watchdog;
  }

  /**
   * Starts {@code command} with its standard output and error appended to {@code outputFile}, then
   * its watchdog.
   *
   * @param killAtExit whether the JVM shutdown hook kills both processes; if {@code false} the
   *     owner stops the server during shutdown and the watchdog kills it once the JVM is gone
   * @throws IOException if either process cannot be started; the server is killed if the watchdog
   *     fails
   */
  static RedisProcess start(List<String> command, Path workDir, Path outputFile, boolean killAtExit)
      throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(killAtExit ? command : inOwnSession(command))
            .directory(workDir.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(DEV_NULL))
            .redirectOutput(ProcessBuilder.Redirect.appendTo(outputFile.toFile()))
            .redirectErrorStream(true);
    Process redis = startRetryingTextFileBusy(builder);
    if (killAtExit) {
      ShutdownCleanup.register(redis);
    }
    try {
      Process watchdog = Watchdog.start(ProcessHandle.current().pid(), redis.pid());
      if (killAtExit) {
        ShutdownCleanup.register(watchdog);
      }
      return new RedisProcess(redis, watchdog);
    } catch (IOException | RuntimeException e) {
      destroyAndWait(redis);
      ShutdownCleanup.unregister(redis);
      throw e;
    }
  }

  /**
   * Runs a server its owner stops (not killed at exit) in a session of its own where {@code setsid}
   * exists (it execs in place, so the pid stays the server's): a Ctrl+C in the terminal then
   * reaches only the JVM, which drains its work and stops the server itself, instead of Redis
   * shutting down under it at the same moment. The watchdog still kills it if the JVM dies.
   */
  private static List<String> inOwnSession(List<String> command) {
    for (String setsid : List.of("/usr/bin/setsid", "/bin/setsid")) {
      if (java.nio.file.Files.isExecutable(Path.of(setsid))) {
        List<String> wrapped = new java.util.ArrayList<>();
        wrapped.add(setsid);
        wrapped.addAll(command);
        return wrapped;
      }
    }
    return command;
  }

  /**
   * Linux refuses to exec a file some process still has open for writing ({@code ETXTBSY}); right
   * after extraction a concurrently forked child can briefly hold such a descriptor.
   */
  private static Process startRetryingTextFileBusy(ProcessBuilder builder) throws IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        return builder.start();
      } catch (IOException e) {
        String message = String.valueOf(e.getMessage());
        if (attempt >= TEXT_FILE_BUSY_RETRIES || !message.contains("error=26")) {
          throw e;
        }
        LOG.log(Level.DEBUG, "redis-server busy (attempt {0}), retrying: {1}", attempt, message);
        sleep(Duration.ofMillis(50L * attempt));
      }
    }
  }

  long pid() {
    return redis.pid();
  }

  boolean isAlive() {
    return redis.isAlive();
  }

  /** Returns the server's exit code; only valid once it has exited. */
  int exitValue() {
    return redis.exitValue();
  }

  /** Sends the server {@code SIGTERM}, which makes it shut down gracefully. */
  void terminate() {
    redis.destroy();
  }

  /**
   * Waits for the server to exit.
   *
   * @return {@code true} if it exited within {@code timeout}
   */
  boolean awaitExit(Duration timeout) {
    try {
      return redis.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RedisServerException("Interrupted while waiting for redis-server to exit", e);
    }
  }

  /**
   * Stops the watchdog and forgets both processes in {@link ShutdownCleanup} (harmless if they were
   * never registered). Call once the server has exited.
   */
  void release() {
    destroyAndWait(watchdog);
    ShutdownCleanup.unregister(watchdog);
    ShutdownCleanup.unregister(redis);
  }

  /**
   * Kills the server and then the watchdog with {@code SIGKILL}, waits for both to exit and forgets
   * them in {@link ShutdownCleanup}. Harmless on a server that has already exited: {@link Process}
   * never signals a process it has reaped.
   */
  void kill() {
    destroyAndWait(redis);
    release();
  }

  private static void destroyAndWait(Process process) {
    process.destroyForcibly();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        LOG.log(Level.WARNING, "Process {0} survived SIGKILL for 10 s", process.pid());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RedisServerException("Interrupted while killing process " + process.pid(), e);
    }
  }

  static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RedisServerException("Interrupted", e);
    }
  }
}
