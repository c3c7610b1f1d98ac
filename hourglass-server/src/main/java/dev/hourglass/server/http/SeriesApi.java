package dev.hourglass.server.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.server.auth.Auth;
import dev.hourglass.server.auth.TokenRule;
import dev.hourglass.server.json.JsonOut;
import dev.hourglass.server.series.QueueSeries;
import dev.hourglass.server.series.SeriesPoint;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.Optional;

/** The dashboard's history: rates and lateness per queue (see {@link QueueSeries}). */
final class SeriesApi {
  private static final int MAX_MINUTES = 60;

  private final ApiContext api;

  SeriesApi(ApiContext api) {
    this.api = api;
  }

  /** {@code GET /v1/queues/{queue}/series?minutes=1..60}: the points of the last minutes. */
  void series(Context ctx, String queue) {
    int minutes = Http.queryInt(ctx, "minutes", 1, MAX_MINUTES, MAX_MINUTES);
    api.queues.existing(queue);
    ObjectNode body = JsonOut.object();
    body.put("intervalMs", QueueSeries.INTERVAL.toMillis());
    ArrayNode points = body.putArray("points");
    for (SeriesPoint p : api.series.points(queue, Duration.ofMinutes(minutes))) {
      points.add(point(JsonOut.object(), p));
    }
    Http.json(ctx, 200, body);
  }

  /** {@code GET /v1/rates}: the newest point of every queue the token may see. */
  void rates(Context ctx) {
    Optional<TokenRule> rule = ctx.attribute(Routes.TOKEN_RULE);
    ObjectNode body = JsonOut.object();
    body.put("intervalMs", QueueSeries.INTERVAL.toMillis());
    ArrayNode list = body.putArray("queues");
    for (String name : api.hourglass.queueNames()) {
      if (Auth.maySee(rule, name)) {
        api.series.latest(name).ifPresent(p -> point(list.addObject().put("name", name), p));
      }
    }
    Http.json(ctx, 200, body);
  }

  private static ObjectNode point(ObjectNode o, SeriesPoint p) {
    o.put("t", p.t());
    o.put("enqueued", p.enqueued()).put("delivered", p.delivered()).put("acked", p.acked());
    o.put("retried", p.retried()).put("dead", p.dead());
    o.put("latenessP50Ms", p.latenessP50Ms()).put("latenessP99Ms", p.latenessP99Ms());
    return o;
  }
}
