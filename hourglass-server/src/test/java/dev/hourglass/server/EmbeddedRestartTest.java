package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hourglass.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The zero-configuration default: no Redis configured, so the server runs an embedded Redis with
 * its AOF ({@code appendfsync always}) in the data directory. Jobs must survive a graceful restart
 * and a SIGKILL of the server's JVM, and no redis-server may outlive its server.
 */
class EmbeddedRestartTest {
  /**
   * Liveness timeout for a step that takes a second or two (a server JVM starting or stopping, the
   * watchdog ending a redis-server, a due job being claimed): room for a loaded machine.
   */
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
  void jobsSurviveAGracefulRestartAndCloseStopsTheEmbeddedRedis() throws Exception {
    dataDir = tmp.resolve("data");
    HourglassServer first = HourglassServer.start(ServerConfig.embedded(dataDir, 0));
    Set<Long> firstRedis;
    long laterRunAt;
    try {
      ApiClient api = new ApiClient(first.baseUrl());
      ApiClient.Response later =
          api.post(
              "/v1/queues/q/jobs", "{\"id\":\"later\",\"payload\":{\"n\":1},\"delayMs\":2000}");
      assertThat(later.status()).as(later.body()).isEqualTo(201);
      assertThat(later.json().get("state").asText()).isEqualTo("delayed");
      laterRunAt = later.json().get("runAt").asLong();
      ApiClient.Response now = api.post("/v1/queues/q/jobs", "{\"id\":\"now\",\"payload\":\"x\"}");
      assertThat(now.status()).as(now.body()).isEqualTo(201);
      assertThat(now.json().get("state").asText()).isEqualTo("ready");

      firstRedis = EmbeddedRedisProcesses.of(dataDir);
      assertThat(firstRedis).as("the embedded redis-server of %s", dataDir).hasSize(1);
    } finally {
      first.close();
    }
    // close() waits for the embedded Redis to exit: nothing is left, at once.
    assertThat(EmbeddedRedisProcesses.of(dataDir)).isEmpty();
    assertThat(ProcessHandle.of(firstRedis.iterator().next()).filter(ProcessHandle::isAlive))
        .isEmpty();
    assertThat(Files.readString(dataDir.resolve("redis.log")))
        .as("stopped gracefully (SIGTERM flushes the AOF), not killed")
        .contains("Received SIGTERM");

    HourglassServer second = HourglassServer.start(ServerConfig.embedded(dataDir, 0));
    try {
      ApiClient api = new ApiClient(second.baseUrl());
      assertThat(EmbeddedRedisProcesses.of(dataDir))
          .hasSize(1)
          .doesNotContainAnyElementsOf(firstRedis);

      JsonNode laterJob = api.get("/v1/queues/q/jobs/later").json();
      assertThat(laterJob.get("runAt").asLong()).isEqualTo(laterRunAt);
      assertThat(laterJob.get("payload").toString()).isEqualTo("{\"n\":1}");
      JsonNode nowJob = api.get("/v1/queues/q/jobs/now").json();
      assertThat(nowJob.get("state").asText()).isEqualTo("ready");
      assertThat(nowJob.get("payload").asText()).isEqualTo("x");

      Map<String, Long> deliveredAt = new HashMap<>();
      Map<String, String> receipts = new HashMap<>();
      await("both jobs claimed")
          .atMost(STEP)
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(10))
          .until(
              () -> {
                ApiClient.Response claimed =
                    api.post("/v1/queues/q/claim", "{\"max\":10,\"waitMs\":10000}");
                assertThat(claimed.status()).as(claimed.body()).isEqualTo(200);
                for (JsonNode job : claimed.json().get("jobs")) {
                  String id = job.get("id").asText();
                  assertThat(deliveredAt).as("delivered twice: " + id).doesNotContainKey(id);
                  deliveredAt.put(id, System.currentTimeMillis());
                  receipts.put(id, job.get("receipt").asText());
                }
                return deliveredAt.size() >= 2;
              });
      assertThat(deliveredAt).containsOnlyKeys("now", "later");
      // Not before its time. Redis and this JVM read the same machine clock; a little slack for
      // rounding. How late it came is the benchmarks' business, not a test's.
      assertThat(deliveredAt.get("later")).isGreaterThanOrEqualTo(laterRunAt - 20);

      for (Map.Entry<String, String> r : receipts.entrySet()) {
        ApiClient.Response ack =
            api.post(
                "/v1/queues/q/jobs/" + r.getKey() + "/ack",
                "{\"receipt\":\"" + r.getValue() + "\"}");
        assertThat(ack.status()).as(ack.body()).isEqualTo(204);
      }
      JsonNode queue = api.get("/v1/queues/q").json();
      assertThat(queue.get("delayed").asLong() + queue.get("ready").asLong()).isZero();
      assertThat(queue.get("inflight").asLong()).isZero();
    } finally {
      second.close();
    }
    assertThat(EmbeddedRedisProcesses.of(dataDir)).isEmpty();
  }

  @Test
  void aSigkilledServerJvmLosesNoAcknowledgedJobAndLeavesNoRedis() throws Exception {
    dataDir = tmp.resolve("data");
    Set<Long> firstRedis;
    try (ServerJvm first = startServer(ChildProcess.freePort())) {
      ApiClient api = ApiClient.onPort(first.port());
      for (int i = 0; i < 100; i++) {
        String delay = i % 2 == 0 ? ",\"delayMs\":3600000" : "";
        ApiClient.Response r =
            api.post(
                "/v1/queues/q/jobs",
                "{\"id\":\"j" + i + "\",\"payload\":{\"i\":" + i + "}" + delay + "}");
        assertThat(r.status()).as("job %d: %s", i, r.body()).isEqualTo(201);
      }
      firstRedis = EmbeddedRedisProcesses.of(dataDir);
      assertThat(firstRedis).as("the embedded redis-server of %s", dataDir).hasSize(1);

      long killedAt = System.nanoTime();
      first.process().kill(); // SIGKILL: no shutdown hook runs, the watchdog must end Redis
      Set<Long> left = EmbeddedRedisProcesses.awaitNone(dataDir, STEP);
      long goneMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
      System.out.println("embedded redis gone " + goneMs + " ms after its JVM was SIGKILLed");
      assertThat(left).as("redis-server still alive %s after its JVM died", STEP).isEmpty();
    }

    try (ServerJvm second = startServer(ChildProcess.freePort())) {
      ApiClient api = ApiClient.onPort(second.port());
      assertThat(EmbeddedRedisProcesses.of(dataDir))
          .hasSize(1)
          .doesNotContainAnyElementsOf(firstRedis);
      JsonNode queue = api.get("/v1/queues/q").json();
      assertThat(queue.get("delayed").asLong()).as(queue.toString()).isEqualTo(50);
      assertThat(queue.get("ready").asLong()).as(queue.toString()).isEqualTo(50);
      assertThat(queue.get("inflight").asLong() + queue.get("dead").asLong()).isZero();
      for (int i = 0; i < 100; i++) {
        ApiClient.Response job = api.get("/v1/queues/q/jobs/j" + i);
        assertThat(job.status()).as("job j%d", i).isEqualTo(200);
        assertThat(job.json().get("payload").get("i").asInt()).isEqualTo(i);
      }

      second.process().terminate(); // SIGTERM: the graceful path this time
      Integer exit = second.process().awaitExit(STEP.toSeconds(), TimeUnit.SECONDS);
      assertThat(exit).as(second.process().output()).isIn(0, 143);
      assertThat(EmbeddedRedisProcesses.awaitNone(dataDir, STEP)).isEmpty();
      assertThat(second.process().stderr())
          .as(second.process().output())
          .anyMatch(l -> l.contains("Hourglass stopped"));
    }
  }

  /** A server JVM with its embedded Redis in {@link #dataDir}, ready to serve. */
  private ServerJvm startServer(int port) throws InterruptedException {
    ChildProcess p =
        ChildProcess.readyServerJvm(
            tmp, port, STEP, "--data-dir", dataDir.toString(), "--log-format", "text");
    return new ServerJvm(p, port);
  }

  private record ServerJvm(ChildProcess process, int port) implements AutoCloseable {
    @Override
    public void close() throws InterruptedException {
      process.close();
    }
  }
}
