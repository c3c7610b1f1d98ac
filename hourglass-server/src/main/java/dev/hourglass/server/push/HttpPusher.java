package dev.hourglass.server.push;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.Delivery;
import dev.hourglass.Job;
import dev.hourglass.JobHandler;
import dev.hourglass.server.http.JsonOut;
import dev.hourglass.server.metrics.Metrics;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * POSTs one job to the queue's URL: {@code {"id","queue","attempt","payload"}} (plus {@code
 * maxAttempts}, {@code runAt}, {@code createdAt}), with headers {@code Hourglass-Job-Id} and {@code
 * Hourglass-Attempt}. A 2xx answer acks the job (the worker acks when this returns); any other
 * status, a connection failure or the timeout throws, and the worker nacks by the backoff.
 */
final class HttpPusher implements JobHandler<byte[]> {
  private final HttpClient http;
  private final DeliveryConfig config;
  private final Metrics metrics;
  private final String queue;

  HttpPusher(HttpClient http, DeliveryConfig config, Metrics metrics, String queue) {
    this.http = http;
    this.config = config;
    this.metrics = metrics;
    this.queue = queue;
  }

  @Override
  public void handle(Job<byte[]> work) throws Exception {
    Delivery<byte[]> job = work.delivery();
    metrics.delivered(queue, "push", job.dueAt());
    ObjectNode body = JsonOut.object();
    body.put("id", job.id()).put("queue", job.queue()).put("attempt", job.attempt());
    JsonOut.putPayload(body, "payload", work.payload());
    body.put("maxAttempts", job.maxAttempts());
    body.put("runAt", job.dueAt().toEpochMilli()).put("createdAt", job.createdAt().toEpochMilli());
    HttpRequest request =
        HttpRequest.newBuilder(config.url())
            .timeout(Duration.ofMillis(config.timeoutMs()))
            .header("Content-Type", "application/json")
            .header("Hourglass-Job-Id", job.id())
            .header("Hourglass-Attempt", Integer.toString(job.attempt()))
            .POST(HttpRequest.BodyPublishers.ofByteArray(JsonOut.bytes(body)))
            .build();
    HttpResponse<Void> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.discarding());
    } catch (IOException e) {
      throw new IOException("POST " + config.url() + " failed: " + e, e);
    }
    int status = response.statusCode();
    if (status < 200 || status > 299) {
      throw new IOException("POST " + config.url() + " answered HTTP " + status);
    }
  }
}
