package dev.hourglass.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

/**
 * Servers must not outlive the JVM that started them, however it ends.
 *
 * <p>The waits below are liveness timeouts, far above what each step takes (a child JVM starts and
 * exits in about a second; the watchdog checks once a second), so that a loaded machine does not
 * fail them: they bound how long a broken build hangs, they measure nothing.
 */
class OrphanTest {
  private static final Duration CHILD_STARTS = Duration.ofSeconds(60);
  private static final Duration CHILD_EXITS = Duration.ofSeconds(60);
  private static final Duration WATCHDOG_KILLS = Duration.ofSeconds(30);

  @Test
  void serverDiesWhenTheJvmIsKilledWithSigkill() throws Exception {
    Process child = startChild("wait");
    long redisPid = 0;
    Path dataDir = null;
    try {
      Map<String, String> printed = readChildOutput(child);
      redisPid = Long.parseLong(printed.get("REDIS_PID"));
      dataDir = Path.of(printed.get("DATA_DIR"));
      assertThat(ProcessHandle.of(redisPid).filter(ProcessHandle::isAlive)).isPresent();

      child.destroyForcibly(); // SIGKILL: no shutdown hooks run
      assertThat(child.waitFor(CHILD_EXITS.toSeconds(), TimeUnit.SECONDS)).isTrue();

      assertThat(awaitGone(redisPid, WATCHDOG_KILLS))
          .as(
              "redis-server pid %d still alive %s after its JVM was SIGKILLed",
              redisPid, WATCHDOG_KILLS)
          .isTrue();
    } finally {
      child.destroyForcibly();
      if (redisPid != 0) {
        ProcessHandle.of(redisPid).ifPresent(ProcessHandle::destroyForcibly);
      }
      if (dataDir != null) {
        ShutdownCleanup.deleteRecursively(dataDir); // A SIGKILLed JVM cannot clean up after itself.
      }
    }
  }

  @Test
  void shutdownHookKillsServersAndDeletesDataDirsOnExit() throws Exception {
    Process child = startChild("exit");
    long redisPid = 0;
    try {
      Map<String, String> printed = readChildOutput(child);
      redisPid = Long.parseLong(printed.get("REDIS_PID"));

      assertThat(child.waitFor(CHILD_EXITS.toSeconds(), TimeUnit.SECONDS)).isTrue();

      // The hook waits for the kill, so this holds right away, before any watchdog tick.
      assertThat(ProcessHandle.of(redisPid).filter(ProcessHandle::isAlive)).isEmpty();
      assertThat(Path.of(printed.get("DATA_DIR"))).doesNotExist();
    } finally {
      child.destroyForcibly();
      if (redisPid != 0) {
        ProcessHandle.of(redisPid).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  @Test
  void theHookLeavesAServerWithKeptDataToItsOwnerWhoStopsItGracefully() throws Exception {
    Path dataDir = Files.createTempDirectory("hourglass-redis-test-");
    Process child = startChild("owner-stops", dataDir.toString());
    try {
      Map<String, String> printed = readChildOutput(child);
      long redisPid = Long.parseLong(printed.get("REDIS_PID"));

      assertThat(child.waitFor(CHILD_EXITS.toSeconds(), TimeUnit.SECONDS)).isTrue();

      // The owner's hook wrote once the cleanup hook was done, then stopped the server (SIGTERM).
      assertThat(ProcessHandle.of(redisPid).filter(ProcessHandle::isAlive)).isEmpty();
      assertThat(Files.readString(dataDir.resolve(ServerSettings.LOG_FILE)))
          .contains("Received SIGTERM")
          .contains("ready to exit");
      try (RedisServer next = RedisServer.builder().persistent().dataDir(dataDir).build()) {
        next.start();
        assertThat(next.command("GET", "during-shutdown")).isEqualTo("1");
      }
    } finally {
      child.destroyForcibly();
      ShutdownCleanup.deleteRecursively(dataDir);
    }
  }

  @Test
  void theWatchdogKillsAServerWithKeptDataThatItsOwnerForgotToStop() throws Exception {
    Path dataDir = Files.createTempDirectory("hourglass-redis-test-");
    Process child = startChild("owner-forgets", dataDir.toString());
    long redisPid = 0;
    try {
      Map<String, String> printed = readChildOutput(child);
      redisPid = Long.parseLong(printed.get("REDIS_PID"));

      assertThat(child.waitFor(CHILD_EXITS.toSeconds(), TimeUnit.SECONDS)).isTrue();

      assertThat(awaitGone(redisPid, WATCHDOG_KILLS))
          .as("redis-server pid %d still alive %s after its JVM exited", redisPid, WATCHDOG_KILLS)
          .isTrue();
      try (RedisServer next = RedisServer.builder().persistent().dataDir(dataDir).build()) {
        next.start();
        assertThat(next.command("GET", "k")).isEqualTo("v");
      }
    } finally {
      child.destroyForcibly();
      if (redisPid != 0) {
        ProcessHandle.of(redisPid).ifPresent(ProcessHandle::destroyForcibly);
      }
      ShutdownCleanup.deleteRecursively(dataDir);
    }
  }

  private static Process startChild(String... modeAndArgs) throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> command = new ArrayList<>();
    command.addAll(
        List.of(
            java,
            "-Xmx64m",
            "-cp",
            System.getProperty("java.class.path"),
            OrphanCheckMain.class.getName()));
    command.addAll(List.of(modeAndArgs));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  /** Reads KEY=value lines until both keys are seen; fails with the child's output otherwise. */
  private static Map<String, String> readChildOutput(Process child) throws Exception {
    CompletableFuture<Map<String, String>> result =
        CompletableFuture.supplyAsync(
            () -> {
              Map<String, String> values = new HashMap<>();
              StringBuilder all = new StringBuilder();
              try (BufferedReader reader =
                  new BufferedReader(
                      new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                  all.append(line).append('\n');
                  int eq = line.indexOf('=');
                  if (eq > 0) {
                    values.put(line.substring(0, eq), line.substring(eq + 1));
                  }
                  if (values.containsKey("REDIS_PID") && values.containsKey("DATA_DIR")) {
                    return values;
                  }
                }
              } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
              throw new AssertionError("Child JVM ended without printing its pid:\n" + all);
            });
    return result.get(CHILD_STARTS.toSeconds(), TimeUnit.SECONDS);
  }

  /** Whether the process is gone within {@code timeout}. */
  private static boolean awaitGone(long pid, Duration timeout) {
    try {
      await("pid " + pid + " gone")
          .atMost(timeout)
          .pollInterval(Duration.ofMillis(50))
          .until(() -> ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty());
      return true;
    } catch (ConditionTimeoutException e) {
      return false;
    }
  }
}
