package dev.hourglass.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.Hourglass;
import dev.hourglass.JobSpec;
import dev.hourglass.JobStateException;
import dev.hourglass.Queue;
import dev.hourglass.RedisUnavailableException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The soak's producers: one thread enqueues through the Java library (a client in this JVM), one
 * over HTTP through the server, each at its share of the rate, with delays drawn from the seed (15%
 * zero, the rest uniform over 0.2 to 10 s); about one library job in ten with a delay of a second
 * or more is cancelled at a random time before it is due. Every outcome goes to the ledger: {@code
 * E} only for an enqueue the library or the server acknowledged, {@code U} for one that failed or
 * whose outcome is unknown.
 */
final class SoakProducer implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_ATTEMPTS = 1000;

  private final Hourglass client;
  private final Queue<byte[]> queue;
  private final String jobsUrl;
  private final SoakLedger ledger;
  private final long seed;
  private final double rate;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final ScheduledExecutorService cancels = Executors.newSingleThreadScheduledExecutor();
  private volatile boolean running = true;
  private Thread library;
  private Thread overHttp;

  SoakProducer(String redisUri, String serverUrl, SoakLedger ledger, long seed, double rate) {
    this.client = Hourglass.builder().redisUri(redisUri).build();
    this.queue = client.queue(SoakConsumer.QUEUE);
    this.jobsUrl = serverUrl + "/v1/queues/" + SoakConsumer.QUEUE + "/jobs";
    this.ledger = ledger;
    this.seed = seed;
    this.rate = rate;
  }

  void start() {
    library = new Thread(() -> loop("L", rate * 0.75, this::enqueueLibrary), "soak-producer");
    overHttp = new Thread(() -> loop("H", rate * 0.25, this::enqueueHttp), "soak-producer-http");
    library.start();
    overHttp.start();
  }

  /** Stops producing, and waits for the cancels already planned (each is before its job's due). */
  void stop() throws InterruptedException {
    running = false;
    library.join();
    overHttp.join();
    cancels.shutdown();
    cancels.awaitTermination(1, TimeUnit.MINUTES);
  }

  private interface Enqueue {
    void enqueue(String id, long dueMs, Random random);
  }

  private void loop(String prefix, double perSecond, Enqueue enqueue) {
    Random random = new Random(seed * 31 + prefix.charAt(0));
    long intervalNanos = (long) (1e9 / perSecond);
    long next = System.nanoTime();
    for (long n = 0; running; n++) {
      long delay = random.nextInt(100) < 15 ? 0 : 200 + random.nextInt(9801);
      enqueue.enqueue(prefix + seed + "-" + n, System.currentTimeMillis() + delay, random);
      next += intervalNanos;
      long wait = next - System.nanoTime();
      if (wait > 0) {
        try {
          TimeUnit.NANOSECONDS.sleep(wait);
        } catch (InterruptedException e) {
          return;
        }
      } else {
        next = System.nanoTime(); // behind after a fault: no burst to catch up
      }
    }
  }

  private void enqueueLibrary(String id, long dueMs, Random random) {
    JobSpec spec =
        JobSpec.builder()
            .id(id)
            .payload(id.getBytes())
            .runAt(Instant.ofEpochMilli(dueMs))
            .maxAttempts(MAX_ATTEMPTS)
            .visibility(SoakConsumer.VISIBILITY)
            .build();
    try {
      queue.enqueue(spec);
    } catch (RuntimeException e) {
      ledger.append("U", id, dueMs);
      return;
    }
    long ackMs = System.currentTimeMillis();
    ledger.append("E", id, dueMs, ackMs);
    long left = dueMs - ackMs;
    if (left >= 1000 && random.nextInt(10) == 0) {
      cancels.schedule(() -> cancel(id), random.nextInt((int) left), TimeUnit.MILLISECONDS);
    }
  }

  private void cancel(String id) {
    try {
      boolean removed = queue.cancel(id);
      ledger.append("C", id, System.currentTimeMillis(), removed);
    } catch (JobStateException e) {
      ledger.append("C", id, System.currentTimeMillis(), false); // inflight: not removed
    } catch (RedisUnavailableException e) {
      if (e.outcomeUnknown()) {
        ledger.append("CU", id);
      } // else: refused before it was sent, nothing changed
    } catch (RuntimeException e) {
      ledger.append("CU", id);
    }
  }

  private void enqueueHttp(String id, long dueMs, Random random) {
    ObjectNode body =
        JSON.createObjectNode()
            .put("id", id)
            .put("payload", id)
            .put("runAt", dueMs)
            .put("maxAttempts", MAX_ATTEMPTS)
            .put("visibilityMs", SoakConsumer.VISIBILITY.toMillis());
    int status;
    try {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(jobsUrl))
              .timeout(Duration.ofSeconds(10))
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)))
              .build();
      status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      status = -1;
    } catch (Exception e) {
      status = -1; // a timeout or a dropped connection: the outcome is unknown
    }
    if (status == 201) {
      ledger.append("E", id, dueMs, System.currentTimeMillis());
    } else {
      ledger.append("U", id, dueMs);
      if (status < 0) {
        SoakConsumer.pause(); // the server is down: do not spin
      }
    }
  }

  @Override
  public void close() {
    cancels.shutdownNow();
    client.close();
  }
}
