package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.assertError;
import static dev.hourglass.server.ContractSupport.assertJson;
import static dev.hourglass.server.ContractSupport.j;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hourglass.server.series.QueueSeries;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's history (SERVER.md, "Dashboard"): {@code GET /v1/queues/{queue}/series} and
 * {@code GET /v1/rates}, from samples of the queues' Redis counters, and the viewer role that reads
 * them and changes nothing.
 */
class ContractSeriesTest extends ContractTestBase {

  /** The test ends each interval itself; the server's loop would end some at random. */
  @BeforeEach
  void samplesWhenTheTestSays() {
    s.server().series().close();
  }

  private void enqueue(TestServer server, String queue, int n) {
    for (int i = 0; i < n; i++) {
      assertJson(server.post("/v1/queues/" + queue + "/jobs", j("{'payload':" + i + "}")), 201);
    }
  }

  @Test
  void eachIntervalHasTheRatesOfEveryCounterAndTheLatenessOfThisServersDeliveries() {
    s.server().series().sample();
    enqueue(s, "orders", 1);
    s.server().series().sample();
    JsonNode created = assertJson(s.get("/v1/queues/orders/series"), 200).get("points");
    assertThat(created).as("a queue made since the last sample counts from zero").hasSize(1);
    assertThat(created.get(0).get("enqueued").asDouble()).isPositive();

    enqueue(s, "orders", 4);
    JsonNode claimed =
        assertJson(s.post("/v1/queues/orders/claim", j("{'max':2,'waitMs':0}")), 200).get("jobs");
    JsonNode first = claimed.get(0);
    s.post(
        "/v1/queues/orders/jobs/" + first.get("id").asText() + "/ack",
        j("{'receipt':'" + first.get("receipt").asText() + "'}"));
    s.server().series().sample();

    JsonNode body = assertJson(s.get("/v1/queues/orders/series?minutes=5"), 200);
    assertThat(body.get("intervalMs").asLong()).isEqualTo(10_000);
    assertThat(body.get("points")).hasSize(2);
    JsonNode p = body.get("points").get(1);
    assertThat(p.get("enqueued").asDouble()).isPositive();
    assertThat(p.get("delivered").asDouble()).isPositive();
    assertThat(p.get("acked").asDouble()).isPositive();
    assertThat(p.get("retried").asDouble()).isZero();
    assertThat(p.get("dead").asDouble()).isZero();
    assertThat(p.get("latenessP50Ms").isIntegralNumber()).as("claims were made here").isTrue();
    assertThat(p.get("latenessP99Ms").asLong())
        .isGreaterThanOrEqualTo(p.get("latenessP50Ms").asLong());
    assertThat(p.get("t").asLong()).isCloseTo(System.currentTimeMillis(), within(60_000L));

    s.server().series().sample();
    JsonNode quiet = assertJson(s.get("/v1/queues/orders/series"), 200).get("points").get(2);
    assertThat(quiet.get("enqueued").asDouble()).isZero();
    assertThat(quiet.get("latenessP50Ms").isNull()).as("no deliveries in it").isTrue();

    JsonNode rates = assertJson(s.get("/v1/rates"), 200).get("queues");
    assertThat(rates).hasSize(1);
    assertThat(rates.get(0).get("name").asText()).isEqualTo("orders");
    assertThat(rates.get(0).get("t").asLong()).isEqualTo(quiet.get("t").asLong());
  }

  @Test
  void badWindowsAndUnknownQueuesAreRefused() {
    enqueue(s, "orders", 1);
    for (String minutes : List.of("0", "61", "x", "")) {
      assertError(s.get("/v1/queues/orders/series?minutes=" + minutes), 400, "invalid_field");
    }
    assertError(s.get("/v1/queues/nope/series"), 404, "queue_not_found");
  }

  @Test
  void aQueueKeepsAtMostAnHourOfPoints() {
    enqueue(s, "orders", 1);
    for (int i = 0; i < QueueSeries.POINTS + 5; i++) {
      s.server().series().sample();
    }
    assertThat(assertJson(s.get("/v1/queues/orders/series"), 200).get("points"))
        .hasSize(QueueSeries.POINTS);
  }

  @Test
  void aViewerReadsQueuesJobsAndSeriesButChangesNothing() {
    String viewer = ContractSupport.VIEWER_TOKEN;
    try (TestServer secured = ContractSupport.adminAndViewer(redis.uri(), "orders*")) {
      for (String q : List.of("orders", "other")) {
        assertJson(
            secured.call(
                "POST",
                "/v1/queues/" + q + "/jobs",
                j("{'id':'a','payload':1}"),
                ContractSupport.ADMIN_TOKEN),
            201);
      }
      secured.server().series().sample();
      secured.server().series().sample();
      List<String> reads =
          List.of(
              "/v1/queues",
              "/v1/queues/orders",
              "/v1/queues/orders/jobs/a",
              "/v1/queues/orders/jobs?state=ready",
              "/v1/queues/orders/dead",
              "/v1/queues/orders/due",
              "/v1/queues/orders/series",
              "/v1/rates",
              "/metrics");
      for (String path : reads) {
        assertThat(secured.call("GET", path, null, viewer).status()).as(path).isEqualTo(200);
      }
      List<String> names = new ArrayList<>();
      secured
          .call("GET", "/v1/rates", null, viewer)
          .json()
          .get("queues")
          .forEach(q -> names.add(q.get("name").asText()));
      assertThat(names).containsExactly("orders");
      assertError(secured.call("GET", "/v1/queues/other/series", null, viewer), 403, "forbidden");

      String[][] writes = {
        {"POST", "/v1/queues/orders/jobs", j("{'payload':1}")},
        {"DELETE", "/v1/queues/orders/jobs/a", null},
        {"PUT", "/v1/queues/orders/jobs/a/schedule", j("{'delayMs':0}")},
        {"POST", "/v1/queues/orders/claim", j("{'max':1}")},
        {"POST", "/v1/queues/orders/pause", null},
        {"POST", "/v1/queues/orders/dead/requeue", null},
        {"DELETE", "/v1/queues/orders/dead", null},
        {"PUT", "/v1/queues/orders", "{}"},
        {"DELETE", "/v1/queues/orders", null},
      };
      for (String[] w : writes) {
        TestServer.Response r = secured.call(w[0], w[1], w[2], viewer);
        assertError(r, 403, "forbidden");
        assertThat(r.json().at("/error/message").asText()).contains("(viewer)");
      }
      assertThat(secured.server().hourglass().queue("orders").stats().ready()).isEqualTo(1);
    }
  }
}
