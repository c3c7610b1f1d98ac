package dev.hourglass.server.http;

import dev.hourglass.server.json.ApiException;
import io.javalin.http.Context;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The files of a page (scripts, style sheets), served by name from a fixed list, each read from the
 * jar once; any other name is 404 {@code not_found}, so no path reaches other resources.
 */
final class PageFiles {
  private final String route;
  private final String dir;
  private final Map<String, String> types;
  private final String cacheControl;
  private final Map<String, byte[]> loaded = new ConcurrentHashMap<>();

  /**
   * @param route the URL folder, for messages (e.g. {@code /docs/})
   * @param dir the folder in the jar
   * @param types the Content-Type of each file served
   */
  PageFiles(String route, String dir, Map<String, String> types, String cacheControl) {
    this.route = route;
    this.dir = dir;
    this.types = Map.copyOf(types);
    this.cacheControl = cacheControl;
  }

  /** Answers with the file named by the path parameter {@code file}. */
  void serve(Context ctx) {
    String name = ctx.pathParam("file");
    String type = types.get(name);
    if (type == null) {
      throw new ApiException(404, "not_found", "no such file: " + route + name);
    }
    ctx.contentType(type);
    ctx.header("Cache-Control", cacheControl);
    ctx.result(loaded.computeIfAbsent(name, n -> Resources.read(dir + n)));
  }

  /** Reads every file now, so that one missing from the jar fails at start. */
  PageFiles checked() {
    types.keySet().forEach(n -> loaded.computeIfAbsent(n, f -> Resources.read(dir + f)));
    return this;
  }
}
