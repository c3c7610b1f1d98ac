package dev.hourglass.server.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.DeadPage;
import dev.hourglass.JobInfo;
import io.javalin.http.Context;

/** The dead-letter queue: list, requeue one or all, purge. */
final class DeadApi {
  static final int MAX_LIMIT = 1000;
  static final int MAX_CURSOR_CHARS = 200;

  private final ApiContext api;

  DeadApi(ApiContext api) {
    this.api = api;
  }

  void list(Context ctx, String queue) {
    int limit = Http.queryInt(ctx, "limit", 1, MAX_LIMIT, 100);
    String cursor = ctx.queryParam("cursor");
    if (cursor != null && (cursor.isEmpty() || cursor.length() > MAX_CURSOR_CHARS)) {
      throw ApiException.invalidField("cursor", "is not a cursor this server gave out");
    }
    DeadPage<byte[]> page = api.queues.existing(queue).dead().list(cursor, limit);
    ObjectNode body = JsonOut.object();
    ArrayNode jobs = body.putArray("jobs");
    for (JobInfo<byte[]> j : page.jobs()) {
      jobs.add(JobJson.job(j));
    }
    if (page.next().isPresent()) {
      body.put("next", page.next().get());
    } else {
      body.putNull("next");
    }
    Http.json(ctx, 200, body);
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
