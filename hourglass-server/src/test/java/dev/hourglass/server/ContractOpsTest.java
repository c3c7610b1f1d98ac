package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.assertError;
import static dev.hourglass.server.ContractSupport.assertJson;
import static dev.hourglass.server.ContractSupport.claim;
import static dev.hourglass.server.ContractSupport.enqueue;
import static dev.hourglass.server.ContractSupport.j;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** API.md "Operations" and the "Errors" rules for requests no route answers. */
class ContractOpsTest extends ContractTestBase {

  @Test
  void healthLiveAndReadyAre200() {
    assertJson(s.get("/health/live"), 200);
    assertJson(s.get("/health/ready"), 200);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/health/live",
        "/health/ready",
        "/",
        "/v1/queues",
        "/v1/queues/q",
        "/v1/queues/q/jobs/a",
        "/v1/queues/q/jobs/missing",
        "/v1/queues/nope",
        "/v1/queues/q/dead",
        "/v1/queues/bad%20name"
      })
  void headAnswersAsGetWithoutABody(String path) {
    enqueue(s, "q", j("{'id':'a','payload':{'n':1}}"));

    TestServer.Response get = s.get(path);
    TestServer.Response head = s.call("HEAD", path, null);

    assertThat(head.status()).as("HEAD %s", path).isEqualTo(get.status());
    assertThat(head.body()).as("HEAD %s", path).isEmpty();
    assertThat(headers(head)).as("HEAD %s", path).isEqualTo(headers(get));
    assertThat(head.raw().headers().firstValue("Content-Length"))
        .as("HEAD %s", path)
        .isEqualTo(get.raw().headers().firstValue("Content-Length"));
  }

  @Test
  void headOnMetricsIsPrometheusTextWithoutABody() {
    TestServer.Response head = s.call("HEAD", "/metrics", null);

    assertThat(head.status()).isEqualTo(200);
    assertThat(head.body()).isEmpty();
    assertThat(head.raw().headers().firstValue("Content-Type").orElse(""))
        .isEqualTo(s.get("/metrics").raw().headers().firstValue("Content-Type").orElse("?"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"/v1/queues/q/claim", "/v1/queues/q/pause", "/v1/queues/q/dead/requeue"})
  void headOnARouteWithoutGetIs405(String path) {
    TestServer.Response head = s.call("HEAD", path, null);

    assertThat(head.status()).isEqualTo(405);
    assertThat(head.body()).isEmpty();
  }

  @Test
  void headOnAnUnknownPathIs404() {
    assertThat(s.call("HEAD", "/nope", null).status()).isEqualTo(404);
  }

  /** The headers that must agree between GET and HEAD: all but the date and the length. */
  private static Map<String, List<String>> headers(TestServer.Response r) {
    Map<String, List<String>> h = new TreeMap<>(r.raw().headers().map());
    h.remove("date");
    h.remove("content-length");
    return h;
  }

  @Test
  void metricsArePrometheusTextWithQueueAndHttpMeters() {
    enqueue(s, "q", j("{'payload':1}"));
    enqueue(s, "q", j("{'id':'c','payload':2,'delayMs':60000}"));
    assertThat(s.call("DELETE", "/v1/queues/q/jobs/c", null).status()).isEqualTo(204);

    TestServer.Response r = s.get("/metrics");

    assertThat(r.status()).isEqualTo(200);
    assertThat(r.raw().headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
    assertThat(r.body())
        .contains("# TYPE hourglass_jobs_enqueued_total counter")
        .containsPattern("(?m)^hourglass_jobs_enqueued_total\\{queue=\"q\"\\} 2(\\.0)?$")
        .containsPattern("(?m)^hourglass_jobs_cancelled_total\\{queue=\"q\"\\} 1(\\.0)?$")
        .containsPattern("(?m)^hourglass_jobs\\{queue=\"q\",state=\"ready\"\\} 1(\\.0)?$")
        .containsPattern("(?m)^hourglass_jobs_held_back\\{queue=\"q\"\\} 0(\\.0)?$")
        .contains("http_server_requests_seconds");
  }

  @Test
  void latenciesAreHistogramsOfABoundedSetOfBucketsAndTheJvmIsThere() {
    enqueue(s, "q", j("{'payload':1}"));
    assertThat(claim(s, "q", "{}")).hasSize(1);
    String text = s.get("/metrics").body();

    for (String histogram :
        List.of(
            "hourglass_delivery_lateness_seconds_bucket{mode=\"pull\",queue=\"q\"",
            "hourglass_redis_script_seconds_bucket{outcome=\"ok\",script=\"claim\"",
            "http_server_requests_seconds_bucket{method=\"POST\",route=\"/v1/queues/{queue}/claim\"")) {
      long buckets = text.lines().filter(l -> l.startsWith(histogram)).count();
      assertThat(buckets).as("buckets of %s", histogram).isBetween(10L, 20L);
    }
    assertThat(text)
        .contains("hourglass_delivery_lateness_seconds_count{mode=\"pull\",queue=\"q\"} 1")
        .contains("jvm_memory_used_bytes")
        .contains("jvm_threads_live_threads")
        .contains("process_uptime_seconds")
        .contains("process_cpu_usage");
  }

  /** docs/grafana-dashboard.json queries only metrics the server exports. */
  @Test
  void theGrafanaDashboardQueriesMetricsThatExist() throws Exception {
    enqueue(s, "q", j("{'payload':1}"));
    assertThat(claim(s, "q", "{}")).hasSize(1);
    String text = s.get("/metrics").body();
    String dashboard = Files.readString(Path.of("..", "docs", "grafana-dashboard.json"));
    Matcher m =
        Pattern.compile("\\b(?:hourglass|http_server|jvm|process)_[a-z_]+").matcher(dashboard);
    List<String> names = new ArrayList<>();
    while (m.find()) {
      names.add(m.group());
    }
    assertThat(names).as("metric names in the dashboard").hasSizeGreaterThan(8);
    for (String name : names) {
      assertThat(text).as("the server exports %s", name).containsPattern("(?m)^" + name + "[{ ]");
    }
  }

  @Test
  void rootIsTheHtmlDashboard() {
    TestServer.Response r = s.get("/");

    assertThat(r.status()).isEqualTo(200);
    assertThat(r.raw().headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
    assertThat(r.body()).contains("<html").contains("Hourglass");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"/nope", "/v1", "/v1/nope", "/v1/queues/q/nope", "/v1/queues/q/jobs/a/nope"})
  void unknownPathIs404NotFound(String path) {
    assertError(s.get(path), 404, "not_found");
    assertError(s.post(path, "{}"), 404, "not_found");
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "DELETE, /v1/queues",
    "POST, /v1/queues",
    "PATCH, /v1/queues/q",
    "PATCH, /v1/queues/q/jobs",
    "PUT, /v1/queues/q/jobs",
    "GET, /v1/queues/q/claim",
    "POST, /health/live",
    "DELETE, /metrics"
  })
  void wrongMethodIs405WithTheErrorShape(String method, String path) {
    assertError(s.call(method, path, "{}"), 405, "method_not_allowed");
  }

  /**
   * A body over the limit (16 MiB here) is answered 413 after the server has read and dropped it,
   * up to twice the limit: this one is 17 MB. The server used to drain 16 MiB only and close the
   * connection with the rest unread, and the client then sometimes lost the answer ("header parser
   * received no bytes").
   */
  @Test
  void bodyOverTheLimitIs413WithTheErrorShape() {
    String huge = "{\"payload\":\"" + "x".repeat(17 * 1024 * 1024) + "\"}";

    assertError(s.post("/v1/queues/q/jobs", huge), 413, "payload_too_large");
    assertError(s.get("/v1/queues/q"), 404, "queue_not_found");
  }
}
