package dev.hourglass.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.bench.Payloads.Job;
import dev.hourglass.server.HourglassServer;
import dev.hourglass.server.config.ServerConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Hourglass through its HTTP API: the server runs in this JVM on the same Redis, and the harness
 * talks to it over loopback HTTP/1.1 with the JDK client, as a client in another language would.
 * Payloads travel as JSON strings (base64 of the bytes). Each consumer thread long-polls a claim of
 * up to {@value #CLAIM_MAX} jobs, hands each to the sink, then acks them all with one batch ack
 * ({@code POST /ack}) that it does not wait for: it claims again at once, and waits for that ack
 * only before sending the next one (and before it stops), so each consumer has at most one ack in
 * flight and every job it handled is acked once. At most {@value #MAX_CONNECTIONS} requests are in
 * flight at once.
 */
final class HttpSystem implements SystemUnderTest {
  static final int CLAIM_MAX = 100;
  private static final int BATCH_MAX = 1000;
  static final int MAX_CONNECTIONS = 64;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HourglassServer server;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final String jobs;
  private final String base;

  /**
   * Requests in flight at once, as a client's connection pool would allow; without a bound the JDK
   * client opens one connection per request of the harness's window.
   */
  private final Semaphore connections = new Semaphore(MAX_CONNECTIONS);

  HttpSystem(String redisUri, String queue) {
    this.server =
        HourglassServer.start(
            ServerConfig.embedded(Path.of("unused"), 0).with(Optional.of(redisUri), List.of()));
    this.base = server.baseUrl() + "/v1/queues/" + queue;
    this.jobs = base + "/jobs";
  }

  @Override
  public String name() {
    return "hourglass-http";
  }

  /** {@code POST} here enqueues one job. */
  String jobsUrl() {
    return jobs;
  }

  private static ObjectNode json(Job job) {
    ObjectNode o = JSON.createObjectNode();
    o.put("payload", Base64.getEncoder().encodeToString(job.payload()));
    o.put("runAt", job.dueMs());
    return o;
  }

  private CompletableFuture<JsonNode> post(String url, JsonNode body, int expect) {
    connections.acquireUninterruptibly();
    return send(url, body, expect).whenComplete((r, e) -> connections.release());
  }

  private CompletableFuture<JsonNode> send(String url, JsonNode body, int expect) {
    HttpRequest request;
    try {
      request =
          HttpRequest.newBuilder(URI.create(url))
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)))
              .build();
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
    return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
        .thenApply(
            r -> {
              if (r.statusCode() != expect) {
                throw new IllegalStateException(
                    "POST " + url + " answered " + r.statusCode() + ": " + new String(r.body()));
              }
              try {
                return r.body().length == 0 ? null : JSON.readTree(r.body());
              } catch (IOException e) {
                throw new IllegalStateException("unreadable answer from " + url, e);
              }
            });
  }

  @Override
  public CompletableFuture<?> enqueueAsync(Job job) {
    return post(jobs, json(job), 201);
  }

  @Override
  public CompletableFuture<?> enqueueBatchAsync(List<Job> batch) {
    List<CompletableFuture<JsonNode>> calls = new ArrayList<>();
    for (int from = 0; from < batch.size(); from += BATCH_MAX) {
      ObjectNode body = JSON.createObjectNode();
      ArrayNode list = body.putArray("jobs");
      for (Job job : batch.subList(from, Math.min(batch.size(), from + BATCH_MAX))) {
        list.add(json(job));
      }
      calls.add(post(jobs + "/batch", body, 200));
    }
    return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new));
  }

  /** {@code count} queues created through the API, one job each; the server promotes them. */
  @Override
  public AutoCloseable idleQueues(int count, Job job) {
    String queues = base.substring(0, base.lastIndexOf('/') + 1);
    List<CompletableFuture<JsonNode>> calls = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      calls.add(post(queues + IDLE_QUEUE_PREFIX + i + "/jobs", json(job), 201));
    }
    calls.forEach(CompletableFuture::join);
    return () -> {};
  }

  @Override
  public String batchMethod() {
    return "POST_jobs/batch_of_up_to_1000";
  }

  @Override
  public AutoCloseable consume(int consumers, Consumer<byte[]> sink) {
    AtomicBoolean running = new AtomicBoolean(true);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < consumers; i++) {
      Thread t = new Thread(() -> consumeLoop(running, sink), "http-consumer-" + i);
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }
    return () -> {
      running.set(false);
      for (Thread t : threads) {
        t.join(10_000);
      }
    };
  }

  private void consumeLoop(AtomicBoolean running, Consumer<byte[]> sink) {
    ObjectNode claim = JSON.createObjectNode().put("max", CLAIM_MAX).put("waitMs", 1000);
    CompletableFuture<?> pendingAck = CompletableFuture.completedFuture(null);
    while (running.get()) {
      JsonNode got;
      try {
        got = post(base + "/claim", claim, 200).join();
      } catch (RuntimeException e) {
        if (running.get()) {
          System.err.println("# hourglass-http claim failed: " + e.getMessage());
        }
        continue;
      }
      if (got.get("jobs").isEmpty()) {
        continue;
      }
      ObjectNode batch = JSON.createObjectNode();
      ArrayNode acks = batch.putArray("acks");
      for (JsonNode job : got.get("jobs")) {
        sink.accept(Base64.getDecoder().decode(job.get("payload").asText()));
        acks.addObject()
            .put("id", job.get("id").asText())
            .put("receipt", job.get("receipt").asText());
      }
      awaitAck(pendingAck);
      pendingAck = post(base + "/ack", batch, 200).thenAccept(HttpSystem::checkAcked);
    }
    awaitAck(pendingAck);
  }

  private static void awaitAck(CompletableFuture<?> ack) {
    try {
      ack.join();
    } catch (RuntimeException e) {
      System.err.println("# hourglass-http batch ack failed: " + e.getMessage());
    }
  }

  /** Fails unless every result of a batch ack says acked. */
  private static void checkAcked(JsonNode answer) {
    for (JsonNode result : answer.get("results")) {
      if (!result.path("acked").asBoolean(false)) {
        throw new IllegalStateException("a job was not acked: " + result);
      }
    }
  }

  @Override
  public String idleConsumerKind() {
    return "HTTP_long_poll_claim_waitMs_1000";
  }

  @Override
  public void close() {
    server.close();
  }
}
