package dev.hourglass.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Runs the watchdog script against stand-in processes ({@code sleep}) for the JVM and redis. */
class WatchdogTest {

  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void killStandIns() {
    started.forEach(Process::destroyForcibly);
  }

  private Process sleeper() throws Exception {
    Process process = new ProcessBuilder("sleep", "30").start();
    started.add(process);
    return process;
  }

  @Test
  void killsTheTargetWhenTheWatchedProcessDies() throws Exception {
    Process jvm = sleeper();
    Process redis = sleeper();
    Process watchdog = Watchdog.start(jvm.pid(), redis.pid());
    started.add(watchdog);

    assertThat(redis.waitFor(1500, TimeUnit.MILLISECONDS)).as("redis killed too early").isFalse();
    jvm.destroyForcibly();

    assertThat(redis.waitFor(3, TimeUnit.SECONDS)).isTrue();
    assertThat(watchdog.waitFor(3, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void treatsAZombieWatchedProcessAsDead() throws Exception {
    // The child sleep exits at once, and its parent (exec'd into "sleep 30") never reaps it.
    Process parent =
        new ProcessBuilder("/bin/sh", "-c", "sleep 0 & echo $!; exec sleep 30")
            .redirectErrorStream(true)
            .start();
    started.add(parent);
    long zombiePid;
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
      zombiePid = Long.parseLong(out.readLine().trim());
    }
    assertThat(awaitZombie(zombiePid)).as("pid %d never became a zombie", zombiePid).isTrue();
    Process redis = sleeper();

    Process watchdog = Watchdog.start(zombiePid, redis.pid());
    started.add(watchdog);

    assertThat(redis.waitFor(3, TimeUnit.SECONDS)).isTrue();
  }

  private static boolean awaitZombie(long pid) throws Exception {
    Path stat = Path.of("/proc/" + pid + "/stat");
    for (int i = 0; i < 100; i++) {
      String text = Files.readString(stat);
      if (text.substring(text.lastIndexOf(')') + 2).startsWith("Z")) {
        return true;
      }
      Thread.sleep(20);
    }
    return false;
  }

  @Test
  void exitsOnItsOwnWhenTheTargetExits() throws Exception {
    Process jvm = sleeper();
    Process redis = sleeper();
    Process watchdog = Watchdog.start(jvm.pid(), redis.pid());
    started.add(watchdog);

    redis.destroyForcibly();

    assertThat(watchdog.waitFor(3, TimeUnit.SECONDS)).isTrue();
    assertThat(jvm.isAlive()).isTrue();
  }
}
