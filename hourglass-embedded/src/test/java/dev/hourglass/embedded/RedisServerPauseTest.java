package dev.hourglass.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RedisServerPauseTest {

  /** The state letter of a process from /proc/PID/stat: 'T' when stopped by a signal. */
  private static char state(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    return stat.charAt(stat.lastIndexOf(')') + 2);
  }

  @Test
  void pauseStallsTheProcessAndResumeContinuesIt() throws IOException {
    try (RedisServer redis = RedisServer.create()) {
      redis.start();
      redis.pause();
      // kill -STOP returns once the signal is sent; the kernel stops the process when it next runs.
      await().atMost(Duration.ofSeconds(10)).until(() -> state(redis.pid()) == 'T');
      redis.resume();
      assertThat(state(redis.pid())).isNotEqualTo('T');
      assertThat(redis.command("PING")).isEqualTo("PONG");
    }
  }

  @Test
  void stopEndsAPausedServer() {
    RedisServer redis = RedisServer.create();
    redis.start();
    long pid = redis.pid();
    redis.pause();
    redis.stop();
    assertThat(redis.isRunning()).isFalse();
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    redis.close();
  }
}
