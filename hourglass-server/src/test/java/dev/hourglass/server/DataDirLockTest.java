package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.server.config.ServerConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded Redis's data directory is locked: a second server on it refuses to start, says which
 * process holds it and exits non-zero, and the first keeps serving.
 */
class DataDirLockTest {
  /** Liveness bound for a server JVM starting or stopping on a loaded machine. */
  private static final Duration STEP = Duration.ofSeconds(60);

  @TempDir Path tmp;
  private Path dataDir;

  @AfterEach
  void noRedisLeftBehind() {
    if (dataDir != null) {
      EmbeddedRedisProcesses.killAll(dataDir); // only does something when a test failed
    }
  }

  @Test
  void aSecondServerJvmOnTheSameDataDirRefusesNamingTheHolderAndTheFirstServesOn()
      throws Exception {
    dataDir = tmp.resolve("data");
    int port = ChildProcess.freePort();
    try (ChildProcess first = serverJvm(port)) {
      ApiClient api = ApiClient.onPort(port);
      api.awaitReady(STEP, first::isAlive, first::output);
      ApiClient.Response enqueued = api.post("/v1/queues/q/jobs", "{\"id\":\"a\",\"payload\":1}");
      assertThat(enqueued.status()).as(enqueued.body()).isEqualTo(201);

      try (ChildProcess second = serverJvm(ChildProcess.freePort())) {
        Integer exit = second.awaitExit(STEP.toSeconds(), TimeUnit.SECONDS);

        assertThat(exit).as(second.output()).isNotNull().isNotZero();
        assertThat(second.stderr())
            .as(second.output())
            .anyMatch(
                l ->
                    l.contains("hourglass server: could not start")
                        && l.contains(dataDir.toAbsolutePath().toString())
                        && l.contains("in use by another Hourglass server (pid " + first.pid()));
      }
      assertThat(EmbeddedRedisProcesses.of(dataDir)).as("one redis-server on the AOF").hasSize(1);
      assertThat(first.isAlive()).as(first.output()).isTrue();
      ApiClient.Response job = api.get("/v1/queues/q/jobs/a");
      assertThat(job.status()).as(job.body()).isEqualTo(200);
      ApiClient.Response more = api.post("/v1/queues/q/jobs", "{\"id\":\"b\",\"payload\":2}");
      assertThat(more.status()).as(more.body()).isEqualTo(201);
      assertThat(api.get("/v1/queues/q").json().get("ready").asLong()).isEqualTo(2);
    }
  }

  @Test
  void aSecondServerInTheSameJvmIsRefusedAndTheLockIsFreeAfterClose() {
    dataDir = tmp.resolve("data");
    HourglassServer first = HourglassServer.start(ServerConfig.embedded(dataDir, 0));
    try {
      assertThatThrownBy(() -> HourglassServer.start(ServerConfig.embedded(dataDir, 0)))
          .isInstanceOf(DataDirLock.DataDirLockedException.class)
          .hasMessageContaining("pid " + ProcessHandle.current().pid());
      assertThat(EmbeddedRedisProcesses.of(dataDir)).hasSize(1);
    } finally {
      first.close();
    }
    HourglassServer again = HourglassServer.start(ServerConfig.embedded(dataDir, 0));
    again.close();
  }

  private ChildProcess serverJvm(int port) {
    return ChildProcess.serverJvm(
        tmp, "server", "--port", Integer.toString(port), "--data-dir", dataDir.toString());
  }
}
