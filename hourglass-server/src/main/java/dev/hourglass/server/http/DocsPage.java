package dev.hourglass.server.http;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;

/**
 * {@code GET /docs}: Swagger UI on {@code /openapi.json}, its files served from the swagger-ui
 * WebJar in the jar (no internet needed). Only the files the page uses are served.
 */
final class DocsPage {
  private static final String PAGE = "/dev/hourglass/server/docs/index.html";
  private static final String WEBJAR_POM = "/META-INF/maven/org.webjars/swagger-ui/pom.properties";
  private static final Map<String, String> FILES =
      Map.of(
          "swagger-ui.css", "text/css; charset=utf-8",
          "swagger-ui-bundle.js", "text/javascript; charset=utf-8");

  private final byte[] page = Resources.read(PAGE);
  private final PageFiles files =
      new PageFiles(
          "/docs/",
          "/META-INF/resources/webjars/swagger-ui/" + webjarVersion() + "/",
          FILES,
          "max-age=86400");

  void page(Context ctx) {
    ctx.contentType("text/html; charset=utf-8");
    ctx.result(page);
  }

  /** One of the page's files; 404 {@code not_found} for any other name. */
  void file(Context ctx) {
    files.serve(ctx);
  }

  private static String webjarVersion() {
    try (InputStream in = DocsPage.class.getResourceAsStream(WEBJAR_POM)) {
      if (in == null) {
        throw new IllegalStateException("missing from the jar: " + WEBJAR_POM);
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
