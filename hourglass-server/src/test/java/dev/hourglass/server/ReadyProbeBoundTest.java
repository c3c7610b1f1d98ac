package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.assertError;
import static dev.hourglass.server.ContractSupport.assertJson;
import static org.awaitility.Awaitility.await;

import dev.hourglass.embedded.RedisServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /health/ready} bounds its own wait for Redis (800 ms), not the client's 5 s command
 * timeout: with Redis hung for 10 s or stopped, it answers 503 {@code redis_unavailable} within a 3
 * s HTTP timeout (a liveness bound: an answer that waited for the 5 s command timeout fails here).
 */
class ReadyProbeBoundTest {
  /** Longer than the bound, shorter than the 5 s command timeout. */
  private static final Duration PROBE_CLIENT_TIMEOUT = Duration.ofSeconds(3);

  private final HttpClient http = HttpClient.newHttpClient();
  private RedisServer redis;
  private TestServer s;
  private Socket sleeper;

  @BeforeEach
  void start() {
    redis = RedisServer.builder().build();
    redis.start();
    s = TestServer.startQuickStop(redis.uri());
  }

  @AfterEach
  void stop() throws IOException {
    if (sleeper != null) {
      sleeper.close();
    }
    s.close();
    redis.close();
  }

  @Test
  void readyIs503WhileRedisHangsAnd200WhenItAnswersAgain() throws Exception {
    assertJson(ready(), 200);

    sleeper = new Socket("127.0.0.1", redis.port());
    send(sleeper, "DEBUG", "SLEEP", "10");
    assertHung();

    assertError(ready(), 503, "redis_unavailable");
    // Probes while the first ping still waits share it: still bounded, still 503.
    assertError(ready(), 503, "redis_unavailable");
    assertJson(s.get("/health/live"), 200);

    await("ready again after the sleep")
        .atMost(Duration.ofSeconds(40))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(() -> assertJson(ready(), 200));
  }

  @Test
  void readyIs503WhileRedisIsStopped() throws Exception {
    redis.stop();

    assertError(ready(), 503, "redis_unavailable");
    assertError(ready(), 503, "redis_unavailable");

    redis.start();
    await("ready again after the restart")
        .atMost(Duration.ofSeconds(40))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(() -> assertJson(ready(), 200));
  }

  /** GET /health/ready with the probe's HTTP timeout; a timeout fails the test. */
  private TestServer.Response ready() throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(s.baseUrl() + "/health/ready"))
            .timeout(PROBE_CLIENT_TIMEOUT)
            .GET()
            .build();
    HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
    return new TestServer.Response(r.statusCode(), r.body(), r);
  }

  /**
   * Waits until Redis does not answer a PING within a second: DEBUG SLEEP has started (a PING that
   * Redis read before the DEBUG command is answered, and the next one tells).
   */
  private void assertHung() throws IOException {
    for (int attempt = 0; attempt < 5; attempt++) {
      try (Socket probe = new Socket("127.0.0.1", redis.port())) {
        probe.setSoTimeout(1000);
        send(probe, "PING");
        InputStream in = probe.getInputStream();
        try {
          in.read();
        } catch (SocketTimeoutException expected) {
          return;
        }
      }
    }
    throw new AssertionError("Redis kept answering PING after DEBUG SLEEP 10");
  }

  private static void send(Socket socket, String... args) throws IOException {
    StringBuilder resp = new StringBuilder("*").append(args.length).append("\r\n");
    for (String a : args) {
      resp.append('$').append(a.length()).append("\r\n").append(a).append("\r\n");
    }
    OutputStream out = socket.getOutputStream();
    out.write(resp.toString().getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }
}
