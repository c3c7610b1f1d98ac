package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.server.auth.Role;
import dev.hourglass.server.auth.TokenRule;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code GET /} and its files under {@code /dashboard/}: all from the jar, no token, no CDN. */
class DashboardPageTest extends ContractTestBase {
  private static final Pattern ASSET = Pattern.compile("(?:href|src)=\"([^\"#]+)\"");

  @Test
  void everyFileThePageUsesIsServedFromTheServerItself() {
    TestServer.Response page = s.get("/");
    assertThat(page.status()).isEqualTo(200);
    List<String> assets = new ArrayList<>();
    Matcher m = ASSET.matcher(page.body());
    while (m.find()) {
      assets.add(m.group(1));
    }
    assertThat(assets).isNotEmpty().allSatisfy(a -> assertThat(a).startsWith("/dashboard/"));
    for (String asset : assets) {
      TestServer.Response r = s.get(asset);
      assertThat(r.status()).as(asset).isEqualTo(200);
      assertThat(r.raw().headers().firstValue("Content-Type").orElse(""))
          .as(asset)
          .startsWith(asset.endsWith(".css") ? "text/css" : "text/javascript");
      assertThat(r.body())
          .as("%s loads nothing from elsewhere and writes no HTML from data", asset)
          .doesNotContainPattern("https?://(?!www\\.w3\\.org/2000/svg)")
          .doesNotContain("innerHTML", "insertAdjacentHTML", "document.write");
    }
  }

  @Test
  void anyOtherFileIsNotFound() {
    for (String path :
        List.of("/dashboard/index.html", "/dashboard/..%2Fopenapi.json", "/dashboard/nope.js")) {
      TestServer.Response r = s.get(path);
      assertThat(r.status()).as(path).isEqualTo(404);
      assertThat(r.errorCode()).as(path).isEqualTo("not_found");
    }
  }

  @Test
  void thePageAndItsFilesNeedNoTokenWhenAuthIsOn() {
    try (TestServer secured =
        TestServer.startQuickStop(
            redis.uri(),
            List.of(TokenRule.of("adm", "secret-token-0123456", Role.ADMIN, List.of("*"))))) {
      assertThat(secured.get("/").status()).isEqualTo(200);
      assertThat(secured.get("/dashboard/core.js").status()).isEqualTo(200);
      assertThat(secured.get("/v1/queues").status()).as("auth is on").isEqualTo(401);
    }
  }
}
