package dev.hourglass.embedded;

import java.io.File;
import java.io.IOException;

/**
 * Starts the {@code /bin/sh} process that kills a redis-server once the JVM that owns it is gone.
 *
 * <p>It covers what a shutdown hook cannot: the JVM being killed with {@code SIGKILL}. The loop
 * checks once a second, using only shell builtins:
 *
 * <ul>
 *   <li>while the server is alive ({@code kill -0 <redisPid>}),
 *   <li>if the JVM is gone ({@code kill -0 <javaPid>} fails) or is a zombie nobody has reaped yet
 *       (state {@code Z}/{@code X} in {@code /proc/<javaPid>/stat}, checked only where that file
 *       exists), send the server {@code SIGKILL} and exit.
 * </ul>
 *
 * <p>The loop ends by itself when the server exits, and it never signals a server pid that has
 * already exited, so a recycled pid is never hit. The owner destroys the watchdog when it stops the
 * server. Thread-safe (stateless).
 */
final class Watchdog {

  private static final File DEV_NULL = new File("/dev/null");

  private Watchdog() {}

  /**
   * Starts a watchdog that kills {@code redisPid} when {@code javaPid} dies.
   *
   * @param javaPid the process to watch, normally {@code ProcessHandle.current().pid()}
   * @param redisPid the process to kill
   * @return the running {@code /bin/sh} process
   * @throws IOException if {@code /bin/sh} cannot be started
   */
  static Process start(long javaPid, long redisPid) throws IOException {
    return new ProcessBuilder("/bin/sh", "-c", script(javaPid, redisPid))
        .redirectInput(ProcessBuilder.Redirect.from(DEV_NULL))
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  /** Returns the shell script; see the class comment. */
  static String script(long javaPid, long redisPid) {
    String stat = "/proc/" + javaPid + "/stat";
    return "jvm_gone() { kill -0 "
        + javaPid
        + " 2>/dev/null || return 0; s=; [ -r "
        + stat
        + " ] && read -r s 2>/dev/null < "
        + stat
        + "; case \"${s##*\") \"}\" in Z*|X*) return 0;; esac; return 1; }; "
        + "while kill -0 "
        + redisPid
        + " 2>/dev/null; do if jvm_gone; then kill -9 "
        + redisPid
        + " 2>/dev/null; exit 0; fi; sleep 1; done";
  }
}
