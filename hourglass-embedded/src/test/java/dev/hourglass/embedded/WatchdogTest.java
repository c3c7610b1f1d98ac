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
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Runs the watchdog script against stand-in processes ({@code sleep}) for the JVM and redis. The
 * stand-ins outlive every wait here (the test kills them), so only the watchdog can end them.
 */
class WatchdogTest {
  /**
   * How long the watchdog gets to act; it checks once a second, and the rest is room for a loaded
   * machine. A liveness timeout: it bounds how long a broken watchdog hangs the build.
   */
  private static final Duration WATCHDOG_ACTS = Duration.ofSeconds(30);

  private static final String STAND_IN_SECONDS = "3600";

  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void killStandIns() {
    started.forEach(Process::destroyForcibly);
  }

  private Process sleeper() throws Exception {
    Process process = new ProcessBuilder("sleep", STAND_IN_SECONDS).start();
    started.add(process);
    return process;
  }

  private static boolean exitsWithin(Process process, Duration timeout) throws Exception {
    return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Test
  void killsTheTargetWhenTheWatchedProcessDies() throws Exception {
    Process jvm = sleeper();
    Process redis = sleeper();
    Process watchdog = Watchdog.start(jvm.pid(), redis.pid());
    started.add(watchdog);

    // A lower bound: for 1.5 s (more than one check, on a quiet machine) a live JVM keeps redis.
    assertThat(exitsWithin(redis, Duration.ofMillis(1500))).as("redis killed too early").isFalse();
    jvm.destroyForcibly();

    assertThat(exitsWithin(redis, WATCHDOG_ACTS)).as("redis killed").isTrue();
    assertThat(exitsWithin(watchdog, WATCHDOG_ACTS)).as("watchdog exited").isTrue();
  }

  @Test
  void treatsAZombieWatchedProcessAsDead() throws Exception {
    // The child waits for the end of its stdin, and its parent (exec'd into a long sleep) never
    // reaps it. The child must exit only after the exec: the shell itself would reap it before.
    Process parent =
        new ProcessBuilder(
                "/bin/sh", "-c", "exec 3<&0; read x <&3 & echo $!; exec sleep " + STAND_IN_SECONDS)
            .redirectErrorStream(true)
            .start();
    started.add(parent);
    long zombiePid;
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
      zombiePid = Long.parseLong(out.readLine().trim());
    }
    await("the shell exec'd into sleep")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(20))
        .until(
            () -> Files.readString(Path.of("/proc/" + parent.pid() + "/comm")).trim(),
            "sleep"::equals);
    parent.getOutputStream().close(); // the child reads the end of its input and exits
    await("pid " + zombiePid + " becomes a zombie")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> isZombie(zombiePid));
    Process redis = sleeper();

    Process watchdog = Watchdog.start(zombiePid, redis.pid());
    started.add(watchdog);

    assertThat(exitsWithin(redis, WATCHDOG_ACTS)).as("redis killed").isTrue();
  }

  private static boolean isZombie(long pid) throws Exception {
    String text = Files.readString(Path.of("/proc/" + pid + "/stat"));
    return text.substring(text.lastIndexOf(')') + 2).startsWith("Z");
  }

  @Test
  void exitsOnItsOwnWhenTheTargetExits() throws Exception {
    Process jvm = sleeper();
    Process redis = sleeper();
    Process watchdog = Watchdog.start(jvm.pid(), redis.pid());
    started.add(watchdog);

    redis.destroyForcibly();

    assertThat(exitsWithin(watchdog, WATCHDOG_ACTS)).as("watchdog exited").isTrue();
    assertThat(jvm.isAlive()).isTrue();
  }
}
