package dev.hourglass.server.http;

import dev.hourglass.Hourglass;
import dev.hourglass.server.json.JsonOut;
import dev.hourglass.server.metrics.Metrics;
import io.javalin.http.Context;

/** Health, metrics and the OpenAPI document. */
public final class Ops {
  private static final String OPENAPI = "/dev/hourglass/server/openapi.json";

  private final Metrics metrics;
  private final byte[] openapi;
  private final ReadinessProbe readiness;

  /**
   * The operational routes' handlers.
   *
   * @param hourglass the client whose Redis the readiness probe pings
   * @param metrics the meters {@code /metrics} renders
   */
  public Ops(Hourglass hourglass, Metrics metrics) {
    this.metrics = metrics;
    this.openapi = Resources.read(OPENAPI);
    this.readiness = new ReadinessProbe(hourglass);
  }

  void live(Context ctx) {
    Http.json(ctx, 200, JsonOut.object().put("status", "live"));
  }

  /** Ready when Redis answers within {@link ReadinessProbe#BOUND}; 503 otherwise. */
  void ready(Context ctx) throws InterruptedException {
    readiness.check();
    Http.json(ctx, 200, JsonOut.object().put("status", "ready"));
  }

  void metrics(Context ctx) {
    ctx.contentType("text/plain; version=0.0.4; charset=utf-8");
    ctx.result(metrics.scrape());
  }

  /** The OpenAPI 3.1 document of this API (see OpenApiContractTest, which keeps it complete). */
  void openapi(Context ctx) {
    ctx.contentType("application/json");
    ctx.result(openapi);
  }
}
