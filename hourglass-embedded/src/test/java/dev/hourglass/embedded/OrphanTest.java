package dev.hourglass.embedded;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.Test;

/** Servers must not outlive the JVM that started them, however it ends. */
class OrphanTest {

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
      assertThat(child.waitFor(5, TimeUnit.SECONDS)).isTrue();

      assertThat(awaitGone(redisPid, Duration.ofSeconds(5)))
          .as("redis-server pid %d still alive 5 s after its JVM was SIGKILLed", redisPid)
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

      assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();

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

      assertThat(child.waitFor(20, TimeUnit.SECONDS)).isTrue();

      // The owner's hook wrote after the JVM began exiting, then stopped the server with SIGTERM.
      assertThat(ProcessHandle.of(redisPid).filter(ProcessHandle::isAlive)).isEmpty();
      assertThat(Files.readString(dataDir.resolve(RedisServer.LOG_FILE)))
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

      assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();

      assertThat(awaitGone(redisPid, Duration.ofSeconds(5)))
          .as("redis-server pid %d still alive 5 s after its JVM exited", redisPid)
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
    return result.get(30, TimeUnit.SECONDS);
  }

  private static boolean awaitGone(long pid, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() - deadline < 0) {
      if (ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty()) {
        return true;
      }
      Thread.sleep(50);
    }
    return false;
  }
}
