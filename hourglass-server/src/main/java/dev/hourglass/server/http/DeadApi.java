package dev.hourglass.server.http;

import dev.hourglass.server.json.JsonOut;
import io.javalin.http.Context;

/** The dead-letter queue: list, requeue one or all, purge. */
final class DeadApi {
  private final ApiContext api;

  DeadApi(ApiContext api) {
    this.api = api;
  }

  void list(Context ctx, String queue) {
    int limit = Http.queryInt(ctx, "limit", 1, Http.MAX_PAGE, 100);
    Http.page(ctx, api.queues.existing(queue).dead().list(Http.cursor(ctx), limit));
  }

  void requeue(Context ctx, String queue, String id) {
    api.queues.existing(queue).dead().requeue(Http.jobId(id));
    ctx.status(204);
  }

  void requeueAll(Context ctx, String queue) {
    long n = api.queues.existing(queue).dead().requeueAll();
    Http.json(ctx, 200, JsonOut.object().put("count", n));
  }

  void purge(Context ctx, String queue) {
    long n = api.queues.existing(queue).dead().purge();
    Http.json(ctx, 200, JsonOut.object().put("count", n));
  }
}
