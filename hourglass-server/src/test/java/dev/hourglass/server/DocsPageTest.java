package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.server.auth.Role;
import dev.hourglass.server.auth.TokenRule;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code GET /docs}: Swagger UI on {@code /openapi.json}, served from the jar, no token needed. */
class DocsPageTest extends ContractTestBase {
  private static final Pattern ASSET = Pattern.compile("(?:href|src)=\"(/docs/[^\"]+)\"");

  private static String contentType(TestServer.Response r) {
    return r.raw().headers().firstValue("Content-Type").orElse("");
  }

  @Test
  void thePageIsHtmlOnTheOpenApiDocumentAndEveryFileItUsesIsServed() {
    TestServer.Response page = s.get("/docs");
    assertThat(page.status()).isEqualTo(200);
    assertThat(contentType(page)).startsWith("text/html");
    assertThat(page.body()).contains("\"/openapi.json\"", "SwaggerUIBundle");

    List<String> assets = new ArrayList<>();
    Matcher m = ASSET.matcher(page.body());
    while (m.find()) {
      assets.add(m.group(1));
    }
    assertThat(assets)
        .containsExactlyInAnyOrder("/docs/swagger-ui.css", "/docs/swagger-ui-bundle.js");
    for (String asset : assets) {
      TestServer.Response r = s.get(asset);
      assertThat(r.status()).as(asset).isEqualTo(200);
      assertThat(contentType(r))
          .as(asset)
          .startsWith(asset.endsWith(".css") ? "text/css" : "text/javascript");
      assertThat(r.body()).as(asset).hasSizeGreaterThan(10_000);
    }
    assertThat(s.get("/docs/swagger-ui-bundle.js").body()).contains("SwaggerUIBundle");
  }

  @Test
  void anyOtherFileIsNotFound() {
    for (String path :
        List.of("/docs/index.html", "/docs/..%2Fopenapi.json", "/docs/pom.properties")) {
      TestServer.Response r = s.get(path);
      assertThat(r.status()).as(path).isEqualTo(404);
      assertThat(r.errorCode()).as(path).isEqualTo("not_found");
    }
  }

  @Test
  void thePageNeedsNoTokenWhenAuthIsOn() {
    try (TestServer secured =
        TestServer.startQuickStop(
            redis.uri(), List.of(TokenRule.of("adm", "secret-token", Role.ADMIN, List.of("*"))))) {
      assertThat(secured.get("/docs").status()).isEqualTo(200);
      assertThat(secured.get("/docs/swagger-ui.css").status()).isEqualTo(200);
      assertThat(secured.get("/v1/queues").status()).as("auth is on").isEqualTo(401);
    }
  }
}
