package dev.hourglass.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.Delivery;
import dev.hourglass.JobSpec;
import dev.hourglass.Nack;
import dev.hourglass.Queue;
import dev.hourglass.server.auth.TokenRule;
import dev.hourglass.server.json.ApiException;
import dev.hourglass.server.json.Fields;
import dev.hourglass.server.json.JsonIn;
import dev.hourglass.server.json.JsonOut;
import io.javalin.http.Context;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Pull consumers: long-poll claim, ack (one and batch), nack, extend. */
final class ConsumeApi {
  private static final Logger log = LoggerFactory.getLogger(ConsumeApi.class);
  static final int MAX_CLAIM = 100;
  static final long MAX_WAIT_MS = 30_000;
  static final int MAX_ERROR_CHARS = 65_536;
  static final int MAX_RECEIPT_CHARS = 256;
  static final int MAX_ID_CHARS = 128;

  private final ApiContext api;

  ConsumeApi(ApiContext api) {
    this.api = api;
  }

  /**
   * Answers asynchronously: a waiting claim holds no request thread, only a place in the queue's
   * long-poll waiters. A client that goes while its claim waits gives the claim up ({@link
   * ClientWatch}); jobs leased for a client that has gone, or whose answer could not be written,
   * are handed back at once, the attempt not counted.
   */
  void claim(Context ctx, String queue) {
    Fields f = Fields.of(JsonIn.object(api.body(ctx))).only("max", "waitMs", "visibilityMs");
    int max = f.intOr("max", 1, MAX_CLAIM, 1);
    long asked = f.longOr("waitMs", 0, MAX_WAIT_MS, 0);
    long waitMs = api.longPolls.isClosing() ? 0 : asked;
    Duration visibility =
        f.optMillis("visibilityMs", 1, JobSpec.MAX_DURATION.toMillis()).orElse(null);
    AtomicReference<Queue<byte[]>> handle = new AtomicReference<>();
    CompletableFuture<List<Delivery<byte[]>>> claimed =
        api.longPolls.hold(
            client(ctx),
            waitMs > 0,
            () -> {
              handle.set(api.queues.forWrite(queue));
              return handle.get().claimAsync(max, visibility, Duration.ofMillis(waitMs));
            });
    Queue<byte[]> q = handle.get();
    AtomicReference<List<Delivery<byte[]>>> answering = new AtomicReference<>();
    ClientWatch.whenAnswerFails(ctx, () -> handBack(q, answering.getAndSet(null)));
    ClientWatch watch =
        waitMs > 0 && !claimed.isDone()
            ? ClientWatch.start(ctx, () -> claimed.cancel(false))
            : null;
    ctx.future(
        () ->
            claimed.handle(
                (jobs, failure) -> {
                  if (watch != null && !watch.stop()) {
                    // A cancelled claim's jobs went back in the core; hand back any it got. A
                    // client that only shut down its sending side (nc -N, a half-close) still
                    // reads this empty answer; for one that closed, the write goes nowhere.
                    handBack(q, jobs);
                    Http.json(ctx, 200, deliveries(queue, List.of()));
                  } else if (failure != null) {
                    ErrorMapper.answer(ctx, failure);
                  } else {
                    List<Delivery<byte[]>> readable = retryUnreadable(q, jobs);
                    answering.set(readable);
                    Http.json(ctx, 200, deliveries(queue, readable));
                  }
                  return null;
                }));
  }

  /**
   * Who a claim counts against for {@code --max-waiting-claims-per-client}: its token with auth on,
   * else the address it connects from (not X-Forwarded-For, which any client can write).
   */
  private static String client(Context ctx) {
    Optional<TokenRule> rule = ctx.attribute(Routes.TOKEN_RULE);
    return rule != null && rule.isPresent()
        ? "token '" + rule.get().name() + "'"
        : "address " + ctx.req().getRemoteAddr();
  }

  /**
   * Returns leased jobs that reached nobody to ready at once, the attempt not counted; a job that
   * cannot be released comes back when its lease ends.
   */
  private static void handBack(Queue<byte[]> q, List<Delivery<byte[]>> jobs) {
    if (jobs == null) {
      return;
    }
    for (Delivery<byte[]> d : jobs) {
      q.releaseAsync(d.id(), d.receipt())
          .whenComplete(
              (ok, error) -> {
                if (error != null) {
                  log.debug(
                      "job {} in {} comes back by its lease: {}",
                      d.id(),
                      q.name(),
                      error.toString());
                }
              });
    }
  }

  /**
   * The deliveries whose payloads this server can open; the others (compressed with what this
   * process lacks) are never answered with a stand-in payload: they go back by their backoff with
   * the reason as their last error, as a Worker does with them.
   */
  private static List<Delivery<byte[]>> retryUnreadable(
      Queue<byte[]> q, List<Delivery<byte[]>> jobs) {
    List<Delivery<byte[]>> readable = new ArrayList<>(jobs.size());
    for (Delivery<byte[]> d : jobs) {
      if (d.payload().readable()) {
        readable.add(d);
      } else {
        q.nackAsync(d, Nack.retry(d.payload().asString()))
            .whenComplete(
                (r, error) -> {
                  if (error != null) {
                    log.debug("job {} in {} comes back by its lease: {}", d.id(), q.name(), error);
                  }
                });
      }
    }
    return readable;
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
    Fields f = Fields.of(JsonIn.object(api.body(ctx))).only("receipt");
    String receipt = f.text("receipt", MAX_RECEIPT_CHARS);
    api.queues.existing(queue).ack(Http.jobId(id), receipt);
    ctx.status(204);
  }

  /**
   * {@code POST /v1/queues/{queue}/ack} {@code {"acks": [{"id", "receipt"}, ...]}}: a body that is
   * not such a list of 1 to {@value JobsApi#MAX_BATCH} is refused whole (400, nothing acked); each
   * element is then acked on its own, and answered in request order with {@code {"id", "acked":
   * true}} or {@code {"id", "error"}} as its single ack would have failed. Every ack is issued at
   * once, so the core sends those of one partition in shared script calls; a second ack of the same
   * id waits for the first, so duplicates settle in request order. Answers asynchronously.
   */
  void ackBatch(Context ctx, String queue) {
    Fields f = Fields.of(JsonIn.object(api.body(ctx))).only("acks");
    JsonNode acks = f.optNode("acks").orElseThrow(() -> f.invalid("acks", "is required"));
    if (!acks.isArray()) {
      throw f.invalid("acks", "must be an array of {\"id\", \"receipt\"} objects");
    }
    if (acks.isEmpty() || acks.size() > JobsApi.MAX_BATCH) {
      throw f.invalid("acks", "must hold 1 to " + JobsApi.MAX_BATCH + " acks, had " + acks.size());
    }
    Queue<byte[]> q = api.queues.existing(queue);
    List<CompletableFuture<ObjectNode>> results = new ArrayList<>(acks.size());
    Map<String, CompletableFuture<ObjectNode>> lastOfId = new HashMap<>();
    for (int i = 0; i < acks.size(); i++) {
      JsonNode element = acks.get(i);
      JsonNode idNode = element.isObject() ? element.get("id") : null;
      String idText =
          idNode != null && idNode.isTextual() && JobSpec.isValidId(idNode.textValue())
              ? idNode.textValue()
              : null;
      String id;
      String receipt;
      try {
        String prefix = "acks[" + i + "].";
        if (!element.isObject()) {
          throw ApiException.invalidField(
              "acks[" + i + "]", "must be an {\"id\", \"receipt\"} object");
        }
        Fields el = new Fields((ObjectNode) element, prefix).only("id", "receipt");
        id = el.text("id", MAX_ID_CHARS);
        if (!JobSpec.isValidId(id)) {
          throw el.invalid("id", "must be 1 to 128 of A-Z a-z 0-9 . _ : -");
        }
        receipt = el.text("receipt", MAX_RECEIPT_CHARS);
      } catch (ApiException e) {
        results.add(CompletableFuture.completedFuture(ackEntry(idText, e)));
        continue;
      }
      CompletableFuture<ObjectNode> before = lastOfId.get(id);
      CompletableFuture<Void> acked =
          before == null
              ? ackOne(q, id, receipt)
              : before.thenCompose(done -> ackOne(q, id, receipt));
      CompletableFuture<ObjectNode> entry =
          acked.handle((ok, failure) -> ackEntry(id, failure == null ? null : failure));
      lastOfId.put(id, entry);
      results.add(entry);
    }
    CompletableFuture<Void> all =
        CompletableFuture.allOf(results.toArray(CompletableFuture[]::new));
    ctx.future(
        () ->
            all.thenApply(
                done -> {
                  ObjectNode body = JsonOut.object();
                  ArrayNode list = body.putArray("results");
                  results.forEach(r -> list.add(r.join()));
                  Http.json(ctx, 200, body);
                  return null;
                }));
  }

  /** One ack, its failure (even a synchronous one) in the future. */
  private static CompletableFuture<Void> ackOne(Queue<byte[]> q, String id, String receipt) {
    try {
      return q.ackAsync(id, receipt);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** {@code {"id", "acked": true}}, or {@code {"id", "error": {"code", "message"}}}. */
  private static ObjectNode ackEntry(String id, Throwable failure) {
    ObjectNode o = JsonOut.object();
    o.put("id", id);
    if (failure == null) {
      o.put("acked", true);
    } else {
      ApiException e = ErrorMapper.toApi(failure);
      o.putObject("error").put("code", e.code()).put("message", e.getMessage());
    }
    return o;
  }

  void nack(Context ctx, String queue, String id) {
    Fields f = Fields.of(JsonIn.object(api.body(ctx))).only("receipt", "error", "delayMs", "dead");
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
    Fields f = Fields.of(JsonIn.object(api.body(ctx))).only("receipt", "visibilityMs");
    String receipt = f.text("receipt", MAX_RECEIPT_CHARS);
    Optional<Duration> visibility = f.optMillis("visibilityMs", 1, JobSpec.MAX_DURATION.toMillis());
    Queue<byte[]> q = api.queues.existing(queue);
    Instant until =
        q.extend(Http.jobId(id), receipt, visibility.orElseGet(() -> q.settings().visibility()));
    Http.json(ctx, 200, JsonOut.object().put("leaseUntil", until.toEpochMilli()));
  }
}
