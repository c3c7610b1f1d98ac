package dev.hourglass.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.Hourglass;
import dev.hourglass.WorkerOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * One consumer of the soak, in a JVM of its own that the soak SIGKILLs and restarts: {@code
 * SoakConsumer library REDIS_URI LEDGER NAME} runs a library {@code Worker}; {@code SoakConsumer
 * http BASE_URL LEDGER NAME} long-polls the server's claim and acks each batch with one batch ack.
 * Either way each delivery is written to the ledger (a {@code D} record) before it is acked.
 */
public final class SoakConsumer {
  static final String QUEUE = "soak";
  static final Duration VISIBILITY = Duration.ofSeconds(5);
  private static final ObjectMapper JSON = new ObjectMapper();

  private SoakConsumer() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 4) {
      System.err.println("usage: SoakConsumer library|http REDIS_URI|BASE_URL LEDGER NAME");
      System.exit(2);
    }
    String name = args[3];
    SoakLedger ledger = new SoakLedger(Path.of(args[2]));
    if (args[0].equals("library")) {
      library(args[1], ledger, name);
    } else {
      http(args[1], ledger, name);
    }
  }

  private static void library(String redisUri, SoakLedger ledger, String name)
      throws InterruptedException {
    Hourglass client = Hourglass.builder().redisUri(redisUri).build();
    client.worker(
        QUEUE,
        job -> ledger.append("D", job.id(), System.currentTimeMillis(), job.attempt(), name),
        WorkerOptions.builder().concurrency(4).visibility(VISIBILITY).build());
    System.out.println("consumer " + name + " (library Worker) started");
    new CountDownLatch(1).await(); // until the soak kills this JVM
  }

  private static void http(String base, SoakLedger ledger, String name) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    String queue = base + "/v1/queues/" + QUEUE;
    ObjectNode claim =
        JSON.createObjectNode()
            .put("max", 50)
            .put("waitMs", 5000)
            .put("visibilityMs", VISIBILITY.toMillis());
    System.out.println("consumer " + name + " (HTTP long poll) started");
    while (true) {
      try {
        JsonNode got = post(http, queue + "/claim", claim, Duration.ofSeconds(15));
        JsonNode jobs = got.get("jobs");
        if (jobs.isEmpty()) {
          continue;
        }
        ObjectNode batch = JSON.createObjectNode();
        ArrayNode acks = batch.putArray("acks");
        for (JsonNode job : jobs) {
          String id = job.get("id").asText();
          ledger.append("D", id, System.currentTimeMillis(), job.get("attempt").asInt(), name);
          acks.addObject().put("id", id).put("receipt", job.get("receipt").asText());
        }
        post(http, queue + "/ack", batch, Duration.ofSeconds(10));
      } catch (Exception e) {
        // The server or Redis is down or stalled: the lease brings unacked jobs back.
        System.err.println("consumer " + name + ": " + e);
        pause();
      }
    }
  }

  private static JsonNode post(HttpClient http, String url, JsonNode body, Duration timeout)
      throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)))
            .build();
    HttpResponse<byte[]> r = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    if (r.statusCode() != 200) {
      throw new IllegalStateException(url + " answered " + r.statusCode());
    }
    return JSON.readTree(r.body());
  }

  /** A short back-off after a failed call (this is a process loop, not a test). */
  static void pause() {
    try {
      Thread.sleep(200);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
