package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.testing.RedisExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Runs the README's curl session, as printed, against a running server. */
class ReadmeCurlTest {
  private static final String MARKER = "<!-- readme-curl-session:";
  private static final String DEFAULT_URL = "HG=http://127.0.0.1:8080";

  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  @Test
  void theCurlSessionWorksAsPrinted() throws Exception {
    String session = session();
    assertThat(session).startsWith(DEFAULT_URL);
    try (TestServer s = TestServer.start(redis.uri())) {
      Path script = Files.createTempFile("readme-session", ".sh");
      Files.writeString(script, session.replace(DEFAULT_URL, "HG=" + s.baseUrl()));
      Process p =
          new ProcessBuilder("bash", "-eu", script.toString()).redirectErrorStream(true).start();
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("the session finished").isTrue();
      List<String> lines =
          new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
      assertThat(p.exitValue()).as(String.join("\n", lines)).isZero();
      assertThat(lines).hasSize(3);
      assertThat(lines.get(0))
          .contains("\"id\":\"order-42\"", "\"queue\":\"orders\"", "\"state\":\"delayed\"");
      assertThat(lines.get(1))
          .contains("\"id\":\"order-42\"", "\"payload\":{\"order\": 42}", "\"attempt\":1");
      assertThat(lines.get(2)).isEqualTo("204");
      assertThat(s.get("/v1/queues/orders/jobs/order-42").status()).isEqualTo(404);
      Files.delete(script);
    }
  }

  private static String session() throws IOException {
    String readme = Files.readString(Path.of("..", "README.md"));
    int marker = readme.indexOf(MARKER);
    assertThat(marker).as("README has the curl session marker").isPositive();
    int start = readme.indexOf("```bash\n", marker) + "```bash\n".length();
    int end = readme.indexOf("```", start);
    return readme.substring(start, end);
  }
}
