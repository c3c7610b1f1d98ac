package dev.hourglass.server.http;

import dev.hourglass.server.auth.Auth;
import dev.hourglass.server.auth.Permission;
import dev.hourglass.server.auth.TokenRule;
import dev.hourglass.server.json.QueueNames;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HttpResponseException;
import io.javalin.router.JavalinDefaultRoutingApi;
import java.util.Optional;

/**
 * Every route of the API (see API.md), with the permission a token needs for it: the one table to
 * read to know what the server answers.
 */
public final class Routes {
  private static final String Q = "/v1/queues/{queue}";

  /** The request's token rule ({@code Optional}, empty with auth off), for handlers that filter. */
  static final String TOKEN_RULE = "hourglass.tokenRule";

  private Routes() {}

  /**
   * Registers every route of the API, the dashboard and the operational endpoints, each with the
   * permission it asks of a token.
   *
   * @param config the Javalin configuration being built
   * @param api what the API's handlers share
   * @param ops the health, metrics and OpenAPI handlers
   */
  public static void install(JavalinConfig config, ApiContext api, Ops ops) {
    JobsApi jobs = new JobsApi(api);
    ConsumeApi consume = new ConsumeApi(api);
    QueuesApi queues = new QueuesApi(api);
    DeadApi dead = new DeadApi(api);
    LifecycleApi lifecycle = new LifecycleApi(api);
    DocsPage docs = new DocsPage();
    DashboardPage dashboard = new DashboardPage();
    SeriesApi series = new SeriesApi(api);
    HistoryApi history = new HistoryApi(api);
    SchedulesApi schedules = new SchedulesApi(api);
    var r = config.routes;

    r.post(Q + "/jobs", queue(api, Permission.PRODUCE, jobs::enqueue));
    r.post(Q + "/jobs/batch", queue(api, Permission.PRODUCE, jobs::batch));
    get(r, Q + "/jobs", queue(api, Permission.READ, lifecycle::jobs));
    get(r, Q + "/jobs/{id}", job(api, Permission.READ, jobs::get));
    r.delete(Q + "/jobs/{id}", job(api, Permission.PRODUCE, jobs::cancel));
    r.put(Q + "/jobs/{id}/schedule", job(api, Permission.PRODUCE, jobs::reschedule));

    r.post(Q + "/claim", queue(api, Permission.CONSUME, consume::claim));
    r.post(Q + "/ack", queue(api, Permission.CONSUME, consume::ackBatch));
    r.post(Q + "/jobs/{id}/ack", job(api, Permission.CONSUME, consume::ack));
    r.post(Q + "/jobs/{id}/nack", job(api, Permission.CONSUME, consume::nack));
    r.post(Q + "/jobs/{id}/extend", job(api, Permission.CONSUME, consume::extend));

    get(r, Q + "/schedules", queue(api, Permission.READ, schedules::list));
    get(r, Q + "/schedules/{id}", job(api, Permission.READ, schedules::get));
    r.put(Q + "/schedules/{id}", job(api, Permission.PRODUCE, schedules::put));
    r.delete(Q + "/schedules/{id}", job(api, Permission.PRODUCE, schedules::delete));
    r.post(Q + "/schedules/{id}/pause", job(api, Permission.PRODUCE, schedules::pause));
    r.post(Q + "/schedules/{id}/resume", job(api, Permission.PRODUCE, schedules::resume));

    get(r, Q + "/dead", queue(api, Permission.READ, dead::list));
    r.post(Q + "/dead/{id}/requeue", job(api, Permission.ADMIN, dead::requeue));
    r.post(Q + "/dead/requeue", queue(api, Permission.ADMIN, dead::requeueAll));
    r.delete(Q + "/dead", queue(api, Permission.ADMIN, dead::purge));

    get(r, "/v1/queues", any(api, Permission.READ, queues::list));
    get(r, Q, queue(api, Permission.READ, queues::get));
    r.put(Q, queue(api, Permission.ADMIN, queues::put));
    r.delete(Q, queue(api, Permission.ADMIN, lifecycle::delete));
    r.post(Q + "/pause", queue(api, Permission.ADMIN, lifecycle::pause));
    r.post(Q + "/resume", queue(api, Permission.ADMIN, lifecycle::resume));
    get(r, Q + "/due", queue(api, Permission.READ, lifecycle::due));
    get(r, Q + "/history", queue(api, Permission.READ, history::page));
    get(r, Q + "/history/{id}", job(api, Permission.READ, history::get));
    get(r, Q + "/series", queue(api, Permission.READ, series::series));
    get(r, "/v1/rates", any(api, Permission.READ, series::rates));

    get(r, "/health/live", ops::live);
    get(r, "/health/ready", ops::ready);
    get(r, "/metrics", any(api, Permission.METRICS, ops::metrics));
    get(r, "/", dashboard::page);
    get(r, "/dashboard/{file}", dashboard::file);
    get(r, "/openapi.json", ops::openapi);
    get(r, "/docs", docs::page);
    get(r, "/docs/{file}", docs::file);

    r.exception(HttpResponseException.class, (e, ctx) -> ErrorMapper.answer(ctx, e));
    r.exception(Exception.class, (e, ctx) -> ErrorMapper.answer(ctx, e));
  }

  /**
   * A GET route, and HEAD on the same path with the same handler: the same checks, status and
   * headers, and Jetty sends no body for a HEAD request.
   */
  private static void get(JavalinDefaultRoutingApi r, String path, Handler handler) {
    r.get(path, handler);
    r.head(path, handler);
  }

  /** A request on one queue. */
  @FunctionalInterface
  interface QueueHandler {
    void handle(Context ctx, String queue) throws Exception;
  }

  /** A request on one job of one queue. */
  @FunctionalInterface
  interface JobHandler {
    void handle(Context ctx, String queue, String id) throws Exception;
  }

  /**
   * Checks the token's role (401/403), then the queue name (400), then the token's queue patterns
   * (403), before the handler reads the body: a refused request writes nothing.
   */
  private static Handler queue(ApiContext api, Permission permission, QueueHandler h) {
    return ctx -> {
      Optional<TokenRule> rule = api.auth.authorize(ctx.header("Authorization"), permission);
      String queue = QueueNames.check(ctx.pathParam("queue"));
      Auth.checkQueue(rule, queue);
      ctx.attribute(TOKEN_RULE, rule);
      h.handle(ctx, queue);
    };
  }

  private static Handler job(ApiContext api, Permission permission, JobHandler h) {
    return queue(api, permission, (ctx, queue) -> h.handle(ctx, queue, ctx.pathParam("id")));
  }

  private static Handler any(ApiContext api, Permission permission, Handler h) {
    return ctx -> {
      ctx.attribute(TOKEN_RULE, api.auth.authorize(ctx.header("Authorization"), permission));
      h.handle(ctx);
    };
  }
}
