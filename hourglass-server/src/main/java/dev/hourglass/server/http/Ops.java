package dev.hourglass.server.http;

import dev.hourglass.Hourglass;
import dev.hourglass.server.metrics.Metrics;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Health, metrics and the dashboard page. */
public final class Ops implements AutoCloseable {
  private static final String DASHBOARD = "/dev/hourglass/server/dashboard/index.html";

  private final Metrics metrics;
  private final byte[] dashboard;
  private final ReadinessProbe readiness;

  public Ops(Hourglass hourglass, Metrics metrics) {
    this.metrics = metrics;
    this.dashboard = readDashboard();
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

  void dashboard(Context ctx) {
    ctx.contentType("text/html; charset=utf-8");
    ctx.result(dashboard);
  }

  /** Stops the readiness probe's thread. */
  @Override
  public void close() {
    readiness.close();
  }

  private static byte[] readDashboard() {
    try (InputStream in = Ops.class.getResourceAsStream(DASHBOARD)) {
      if (in == null) {
        throw new IllegalStateException("dashboard missing from the jar: " + DASHBOARD);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
