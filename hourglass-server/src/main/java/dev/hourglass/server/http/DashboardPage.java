package dev.hourglass.server.http;

import io.javalin.http.Context;
import java.util.Map;

/**
 * {@code GET /}: the dashboard, one page with its scripts and style sheet under {@code
 * /dashboard/{file}}, all from the jar (no internet needed). The page needs no token; it asks for
 * one when the API answers 401 and sends it with each API call.
 */
final class DashboardPage {
  private static final String DIR = "/dev/hourglass/server/dashboard/";
  private static final String JS = "text/javascript; charset=utf-8";

  private final byte[] page = Resources.read(DIR + "index.html");
  private final PageFiles files =
      new PageFiles(
              "/dashboard/",
              DIR,
              Map.of(
                  "dashboard.css", "text/css; charset=utf-8",
                  "core.js", JS,
                  "charts.js", JS,
                  "overview.js", JS,
                  "queue.js", JS,
                  "jobs.js", JS,
                  "schedules.js", JS,
                  "app.js", JS),
              "no-cache")
          .checked();

  void page(Context ctx) {
    ctx.contentType("text/html; charset=utf-8");
    ctx.header("Cache-Control", "no-cache");
    ctx.result(page);
  }

  /** One of the page's files; 404 {@code not_found} for any other name. */
  void file(Context ctx) {
    files.serve(ctx);
  }
}
