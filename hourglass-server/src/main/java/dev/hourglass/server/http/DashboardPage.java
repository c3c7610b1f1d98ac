package dev.hourglass.server.http;

import io.javalin.http.Context;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code GET /}: the dashboard, one page with its script and style sheet under {@code
 * /dashboard/{file}}, all from the jar (no internet needed). The page needs no token; it asks for
 * one when the API answers 401 and sends it with each API call.
 */
final class DashboardPage {
  private static final String DIR = "/dev/hourglass/server/dashboard/";
  private static final Map<String, String> FILES =
      Map.of(
          "dashboard.css", "text/css; charset=utf-8",
          "core.js", "text/javascript; charset=utf-8",
          "charts.js", "text/javascript; charset=utf-8",
          "overview.js", "text/javascript; charset=utf-8",
          "queue.js", "text/javascript; charset=utf-8",
          "jobs.js", "text/javascript; charset=utf-8",
          "app.js", "text/javascript; charset=utf-8");

  private final byte[] page = Resources.read(DIR + "index.html");
  private final Map<String, byte[]> files = new HashMap<>();

  DashboardPage() {
    FILES.keySet().forEach(name -> files.put(name, Resources.read(DIR + name)));
  }

  void page(Context ctx) {
    ctx.contentType("text/html; charset=utf-8");
    ctx.header("Cache-Control", "no-cache");
    ctx.result(page);
  }

  /** One of the page's files; 404 {@code not_found} for any other name. */
  void file(Context ctx) {
    String name = ctx.pathParam("file");
    String type = FILES.get(name);
    if (type == null) {
      throw new ApiException(404, "not_found", "no such file: /dashboard/" + name);
    }
    ctx.contentType(type);
    ctx.header("Cache-Control", "no-cache");
    ctx.result(files.get(name));
  }
}
