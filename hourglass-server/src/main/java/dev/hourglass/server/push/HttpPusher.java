package dev.hourglass.server.push;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.Delivery;
import dev.hourglass.Job;
import dev.hourglass.JobHandler;
import dev.hourglass.server.json.JsonOut;
import dev.hourglass.server.metrics.Metrics;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodySubscribers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * POSTs one job to the queue's URL: {@code {"id","queue","attempt","payload"}} (plus {@code
 * maxAttempts}, {@code runAt}, {@code createdAt}, and {@code schedule} for an occurrence of one),
 * with headers {@code Hourglass-Job-Id}, {@code Hourglass-Attempt}, the queue's own {@code headers}
 * and, with a secret, {@code Hourglass-Signature}. A 2xx answer acks the job (the worker acks when
 * this returns). Any other status, a connection failure or the timeout retries it by its backoff
 * ({@link Job#retryAfter}), dead after its last attempt, with a one-line reason from {@link
 * PushFailures} as its last error.
 */
final class HttpPusher implements JobHandler<byte[]> {
  /** Past the POST's own timeout, how long an answer's body may still take to arrive. */
  private static final long BODY_GRACE_MS = 1000;

  private final HttpClient http;
  private final DeliveryConfig config;
  private final Metrics metrics;
  private final String queue;
  private final Signatures signatures;

  HttpPusher(HttpClient http, DeliveryConfig config, Metrics metrics, String queue) {
    this.http = http;
    this.config = config;
    this.metrics = metrics;
    this.queue = queue;
    this.signatures = config.secret() == null ? null : new Signatures(config.secret());
  }

  @Override
  public void handle(Job<byte[]> work) throws InterruptedException {
    Delivery<byte[]> job = work.delivery();
    metrics.delivered(queue, "push", job.dueAt());
    ObjectNode body = JsonOut.object();
    body.put("id", job.id()).put("queue", job.queue()).put("attempt", job.attempt());
    JsonOut.putPayload(body, "payload", work.payload());
    body.put("maxAttempts", job.maxAttempts());
    body.put("runAt", job.dueAt().toEpochMilli()).put("createdAt", job.createdAt().toEpochMilli());
    job.schedule().ifPresent(s -> body.put("schedule", s));
    byte[] bytes = JsonOut.bytes(body);
    HttpRequest.Builder request =
        HttpRequest.newBuilder(config.url()).timeout(Duration.ofMillis(config.timeoutMs()));
    config.headers().forEach(request::header);
    request
        .header("Content-Type", "application/json")
        .header("Hourglass-Job-Id", job.id())
        .header("Hourglass-Attempt", Integer.toString(job.attempt()));
    if (signatures != null) {
      request.header(Signatures.HEADER, signatures.sign(System.currentTimeMillis(), bytes));
    }
    String failure = post(request.POST(HttpRequest.BodyPublishers.ofByteArray(bytes)).build());
    if (failure != null) {
      Duration delay =
          job.backoff().delayAfter(job.attempt(), ThreadLocalRandom.current().nextDouble());
      work.retryAfter(delay, failure); // past the last attempt, the job goes dead
    }
  }

  /** Null when the endpoint answered 2xx, else why not, in one line. */
  private String post(HttpRequest request) throws InterruptedException {
    CompletableFuture<HttpResponse<byte[]>> call =
        http.sendAsync(
            request,
            info ->
                ok(info.statusCode())
                    ? BodySubscribers.replacing(new byte[0])
                    : new PushFailures.AnswerPrefix(PushFailures.ANSWER_BYTES));
    HttpResponse<byte[]> response;
    try {
      response = call.get(config.timeoutMs() + BODY_GRACE_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      return PushFailures.exception(
          e, config.timeoutMs(), PushDeliveries.CONNECT_TIMEOUT.toMillis(), config.url().getHost());
    } catch (TimeoutException e) {
      call.cancel(true);
      return "timeout after " + config.timeoutMs() + " ms";
    } catch (InterruptedException e) {
      call.cancel(true);
      throw e;
    }
    int status = response.statusCode();
    return ok(status) ? null : PushFailures.status(status, response.body());
  }

  private static boolean ok(int status) {
    return status >= 200 && status <= 299;
  }
}
