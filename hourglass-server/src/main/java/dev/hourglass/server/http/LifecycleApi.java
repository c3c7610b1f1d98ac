package dev.hourglass.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.JobState;
import dev.hourglass.Queue;
import dev.hourglass.QueueNotEmptyException;
import dev.hourglass.archive.ArchiveException;
import dev.hourglass.server.json.ApiException;
import dev.hourglass.server.json.JsonOut;
import dev.hourglass.server.push.DeliveryConfig;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** Jobs by state, when delayed jobs fall due, and pause, resume and delete (API.md 1.1). */
final class LifecycleApi {
  /** The horizons of {@code GET /v1/queues/{queue}/due}: a minute, an hour, a day. */
  private static final List<Duration> HORIZONS =
      List.of(Duration.ofMinutes(1), Duration.ofHours(1), Duration.ofDays(1));

  private final ApiContext api;

  LifecycleApi(ApiContext api) {
    this.api = api;
  }

  void jobs(Context ctx, String queue) {
    String label = ctx.queryParam("state");
    if (label == null) {
      throw ApiException.invalidField("state", "is required: delayed, ready, inflight or dead");
    }
    JobState state;
    try {
      state = JobState.fromLabel(label);
    } catch (IllegalArgumentException e) {
      throw ApiException.invalidField("state", "must be delayed, ready, inflight or dead");
    }
    if (!label.equals(label.toLowerCase(Locale.ROOT))) {
      throw ApiException.invalidField("state", "must be delayed, ready, inflight or dead");
    }
    int limit = Http.queryInt(ctx, "limit", 1, Http.MAX_PAGE, 100);
    Http.page(ctx, api.queues.existing(queue).jobs(state, limit, Http.cursor(ctx)));
  }

  void due(Context ctx, String queue) {
    Queue<byte[]> q = api.queues.existing(queue);
    List<Long> within = q.dueWithin(HORIZONS);
    long delayed = q.stats().delayed();
    ObjectNode body = JsonOut.object();
    body.put("minute", within.get(0));
    body.put("hour", within.get(1) - within.get(0));
    body.put("day", within.get(2) - within.get(1));
    body.put("later", Math.max(0, delayed - within.get(2)));
    Http.json(ctx, 200, body);
  }

  void pause(Context ctx, String queue) {
    Http.noFields(api.body(ctx));
    Queue<byte[]> q = api.queues.existing(queue);
    q.pause();
    Http.json(ctx, 200, QueuesApi.view(q.stats(), q.settings()));
  }

  void resume(Context ctx, String queue) {
    Http.noFields(api.body(ctx));
    Queue<byte[]> q = api.queues.existing(queue);
    q.resume();
    Http.json(ctx, 200, QueuesApi.view(q.stats(), q.settings()));
  }

  void delete(Context ctx, String queue) {
    String force = ctx.queryParam("force");
    if (force != null && !force.equals("true") && !force.equals("false")) {
      throw ApiException.invalidField("force", "must be true or false");
    }
    Queue<byte[]> q = api.queues.existing(queue);
    boolean withJobs = "true".equals(force);
    if (!withJobs && q.stats().total() > 0) {
      q.delete(); // refuses, naming how many jobs it holds
    }
    // This server's pusher would create the queue again with its next claim: stopped first, and
    // started again as it was when the delete is refused.
    DeliveryConfig delivery =
        DeliveryConfig.fromAttribute(q.settings().attributes().get(DeliveryConfig.ATTRIBUTE));
    api.push.apply(queue, DeliveryConfig.PULL);
    long n;
    try {
      // Deleting a queue deletes its outbox: what finished before is stored first (503
      // archive_unavailable, and nothing deleted, when the database cannot take it). Jobs that a
      // forced delete removes are not archived: they did not finish.
      api.archive.ifPresent(a -> a.drain(queue));
      n = withJobs ? q.deleteWithJobs() : deleteEmpty(q);
    } catch (QueueNotEmptyException | ArchiveException e) {
      api.push.apply(queue, delivery);
      throw e;
    }
    api.queues.forget(queue);
    if (withJobs) {
      Http.json(ctx, 200, JsonOut.object().put("count", n));
    } else {
      ctx.status(204);
    }
  }

  private static long deleteEmpty(Queue<byte[]> q) {
    q.delete();
    return 0;
  }
}
