package dev.hourglass.server.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.Delivery;
import dev.hourglass.JobSpec;
import dev.hourglass.Nack;
import dev.hourglass.Queue;
import io.javalin.http.Context;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** Pull consumers: long-poll claim, ack, nack, extend. */
final class ConsumeApi {
  static final int MAX_CLAIM = 100;
  static final long MAX_WAIT_MS = 30_000;
  static final int MAX_ERROR_CHARS = 65_536;
  static final int MAX_RECEIPT_CHARS = 256;

  private final ApiContext api;

  ConsumeApi(ApiContext api) {
    this.api = api;
  }

  /**
   * Answers asynchronously: a waiting claim holds no request thread, only a place in the queue's
   * long-poll waiters.
   */
  void claim(Context ctx, String queue) {
    Fields f = Fields.of(JsonIn.object(ctx.bodyAsBytes())).only("max", "waitMs", "visibilityMs");
    int max = f.intOr("max", 1, MAX_CLAIM, 1);
    long asked = f.longOr("waitMs", 0, MAX_WAIT_MS, 0);
    long waitMs = api.isClosing() ? 0 : asked;
    Duration visibility =
        f.optMillis("visibilityMs", 1, JobSpec.MAX_DURATION.toMillis()).orElse(null);
    Queue<byte[]> q = api.queues.forWrite(queue);
    CompletableFuture<List<Delivery<byte[]>>> claimed =
        api.track(q.claimAsync(max, visibility, Duration.ofMillis(waitMs)));
    ctx.future(
        () ->
            claimed.handle(
                (jobs, failure) -> {
                  if (failure != null) {
                    ErrorMapper.answer(ctx, failure);
                  } else {
                    Http.json(ctx, 200, deliveries(queue, jobs));
                  }
                  return null;
                }));
  }

  private ObjectNode deliveries(String queue, List<Delivery<byte[]>> jobs) {
    ObjectNode body = JsonOut.object();
    ArrayNode list = body.putArray("jobs");
    for (Delivery<byte[]> d : jobs) {
      api.metrics.delivered(queue, "pull", d.dueAt());
      list.add(JobJson.delivery(d));
    }
    return body;
  }

  void ack(Context ctx, String queue, String id) {
    Fields f = Fields.of(JsonIn.object(ctx.bodyAsBytes())).only("receipt");
    String receipt = f.text("receipt", MAX_RECEIPT_CHARS);
    api.queues.existing(queue).ack(Http.jobId(id), receipt);
    ctx.status(204);
  }

  void nack(Context ctx, String queue, String id) {
    Fields f =
        Fields.of(JsonIn.object(ctx.bodyAsBytes())).only("receipt", "error", "delayMs", "dead");
    String receipt = f.text("receipt", MAX_RECEIPT_CHARS);
    String error = f.optText("error", MAX_ERROR_CHARS).orElse("");
    Optional<Duration> delay =
        f.optMillis("delayMs", 0, dev.hourglass.Backoff.MAX_DELAY.toMillis());
    boolean dead = f.boolOr("dead", false);
    Nack nack = new Nack(error, delay, dead);
    api.queues.existing(queue).nack(Http.jobId(id), receipt, nack);
    ctx.status(204);
  }

  void extend(Context ctx, String queue, String id) {
    Fields f = Fields.of(JsonIn.object(ctx.bodyAsBytes())).only("receipt", "visibilityMs");
    String receipt = f.text("receipt", MAX_RECEIPT_CHARS);
    Optional<Duration> visibility = f.optMillis("visibilityMs", 1, JobSpec.MAX_DURATION.toMillis());
    Queue<byte[]> q = api.queues.existing(queue);
    Instant until =
        q.extend(Http.jobId(id), receipt, visibility.orElseGet(() -> q.settings().visibility()));
    Http.json(ctx, 200, JsonOut.object().put("leaseUntil", until.toEpochMilli()));
  }
}
