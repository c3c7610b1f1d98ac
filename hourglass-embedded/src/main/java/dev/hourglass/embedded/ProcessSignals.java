package dev.hourglass.embedded;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Sends {@code SIGSTOP}/{@code SIGCONT} to a process with {@code kill}, to stall and release it.
 */
final class ProcessSignals {
  private ProcessSignals() {}

  /** Stops (freezes) the process with {@code SIGSTOP}. */
  static void stop(long pid) {
    send("-STOP", pid);
  }

  /** Continues a stopped process with {@code SIGCONT}; harmless on a running one. */
  static void cont(long pid) {
    send("-CONT", pid);
  }

  private static void send(String signal, long pid) {
    try {
      Process kill = new ProcessBuilder("kill", signal, Long.toString(pid)).inheritIO().start();
      if (!kill.waitFor(10, TimeUnit.SECONDS)) {
        kill.destroyForcibly();
        throw new RedisServerException("kill " + signal + " " + pid + " did not finish");
      }
      if (kill.exitValue() != 0) {
        throw new RedisServerException(
            "kill " + signal + " " + pid + " exited with " + kill.exitValue(), null);
      }
    } catch (IOException e) {
      throw new RedisServerException("Cannot run kill " + signal + " " + pid, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RedisServerException("Interrupted sending " + signal + " to " + pid, e);
    }
  }
}
