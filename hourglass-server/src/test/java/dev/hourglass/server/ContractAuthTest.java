package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.assertError;
import static dev.hourglass.server.ContractSupport.assertJson;
import static dev.hourglass.server.ContractSupport.digest;
import static dev.hourglass.server.ContractSupport.j;
import static dev.hourglass.server.ContractSupport.namesOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hourglass.server.auth.Role;
import dev.hourglass.server.auth.TokenRule;
import dev.hourglass.testing.RedisExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** API.md "Auth": bearer tokens with a role and queue patterns; 401 and 403. */
class ContractAuthTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private static final String ADMIN = "admin-token-0123456789";
  private static final String PRODUCER = "producer-token-0123456789";
  private static final String CONSUMER = "consumer-token-0123456789";

  private TestServer s;

  @BeforeEach
  void startServer() {
    s =
        TestServer.startQuickStop(
            redis.uri(),
            List.of(
                TokenRule.of("adm", ADMIN, Role.ADMIN, List.of("*")),
                TokenRule.of("prod", PRODUCER, Role.PRODUCER, List.of("orders*")),
                TokenRule.of("cons", CONSUMER, Role.CONSUMER, List.of("orders*"))));
  }

  @AfterEach
  void stopServer() {
    s.close();
  }

  private TestServer.Response as(String token, String method, String path, String body) {
    return s.call(method, path, body, token);
  }

  private void enqueueAs(String token, String queue, String id) {
    assertJson(
        as(token, "POST", "/v1/queues/" + queue + "/jobs", "{\"id\":\"" + id + "\",\"payload\":1}"),
        201);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"/v1/queues", "/v1/queues/orders", "/v1/queues/orders/jobs/a", "/metrics"})
  void headChecksTheTokenAsGetDoes(String path) {
    enqueueAs(ADMIN, "orders", "a");

    assertThat(as(null, "HEAD", path, null).status()).isEqualTo(401);
    assertThat(as("unknown-token-0123456789", "HEAD", path, null).status()).isEqualTo(401);
    TestServer.Response allowed = as(PRODUCER, "HEAD", path, null);
    assertThat(allowed.status()).isEqualTo(200);
    assertThat(allowed.body()).isEmpty();
  }

  @Test
  void headOnAQueueOutsideTheTokensPatternsIs403() {
    assertThat(as(PRODUCER, "HEAD", "/v1/queues/billing", null).status()).isEqualTo(403);
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "POST, /v1/queues/orders/jobs",
    "POST, /v1/queues/orders/jobs/batch",
    "GET, /v1/queues/orders/jobs/a",
    "DELETE, /v1/queues/orders/jobs/a",
    "POST, /v1/queues/orders/claim",
    "POST, /v1/queues/orders/jobs/a/ack",
    "POST, /v1/queues/orders/ack",
    "GET, /v1/queues",
    "GET, /v1/queues/orders",
    "PUT, /v1/queues/orders",
    "GET, /v1/queues/orders/dead",
    "DELETE, /v1/queues/orders/dead",
    "GET, /metrics"
  })
  void noTokenIs401(String method, String path) {
    String before = digest(redis);

    assertError(as(null, method, path, j("{'payload':1}")), 401, "unauthorized");

    assertThat(digest(redis)).isEqualTo(before);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Bearer wrong-token-0123456789",
        "Bearer ",
        "Bearer admin-token-012345678",
        "Basic YWRtOmFkbWlu",
        "admin-token-0123456789"
      })
  void wrongTokenIs401(String authorization) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(s.baseUrl() + "/v1/queues/orders/jobs"))
            .header("Authorization", authorization)
            .POST(HttpRequest.BodyPublishers.ofString(j("{'payload':1}")))
            .timeout(Duration.ofSeconds(10))
            .build();
    HttpResponse<String> raw =
        HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());

    assertError(new TestServer.Response(raw.statusCode(), raw.body(), raw), 401, "unauthorized");
    assertThat(s.server().hourglass().queueNames()).isEmpty();
  }

  @Test
  void aBatchAckNeedsTheConsumerRole() {
    enqueueAs(ADMIN, "orders", "a");
    JsonNode jobs = assertJson(as(CONSUMER, "POST", "/v1/queues/orders/claim", "{}"), 200);
    String body =
        "{\"acks\":[{\"id\":\"a\",\"receipt\":\""
            + jobs.get("jobs").get(0).get("receipt").asText()
            + "\"}]}";
    String before = digest(redis);

    assertError(as(PRODUCER, "POST", "/v1/queues/orders/ack", body), 403, "forbidden");
    assertError(as(CONSUMER, "POST", "/v1/queues/other/ack", body), 403, "forbidden");
    assertThat(digest(redis)).isEqualTo(before);

    JsonNode results = assertJson(as(CONSUMER, "POST", "/v1/queues/orders/ack", body), 200);
    assertThat(results.get("results").get(0).get("acked").booleanValue()).isTrue();
  }

  @Test
  void producerMayNotClaim() {
    enqueueAs(ADMIN, "orders", "a");
    String before = digest(redis);

    assertError(as(PRODUCER, "POST", "/v1/queues/orders/claim", "{}"), 403, "forbidden");

    assertThat(digest(redis)).isEqualTo(before);
  }

  @Test
  void consumerMayNotEnqueueCancelOrReschedule() {
    enqueueAs(ADMIN, "orders", "a");
    String before = digest(redis);

    assertError(
        as(CONSUMER, "POST", "/v1/queues/orders/jobs", j("{'payload':1}")), 403, "forbidden");
    assertError(
        as(CONSUMER, "POST", "/v1/queues/orders/jobs/batch", j("{'jobs':[{'payload':1}]}")),
        403,
        "forbidden");
    assertError(as(CONSUMER, "DELETE", "/v1/queues/orders/jobs/a", null), 403, "forbidden");
    assertError(
        as(CONSUMER, "PUT", "/v1/queues/orders/jobs/a/schedule", j("{'delayMs':1}")),
        403,
        "forbidden");

    assertThat(digest(redis)).isEqualTo(before);
  }

  @Test
  void producerMayNotUseAQueueOutsideItsPatterns() {
    enqueueAs(ADMIN, "other", "a");
    String before = digest(redis);

    assertError(
        as(PRODUCER, "POST", "/v1/queues/other/jobs", j("{'payload':1}")), 403, "forbidden");
    assertError(
        as(PRODUCER, "POST", "/v1/queues/new-queue/jobs", j("{'payload':1}")), 403, "forbidden");
    assertError(as(PRODUCER, "GET", "/v1/queues/other/jobs/a", null), 403, "forbidden");
    assertError(as(PRODUCER, "GET", "/v1/queues/other", null), 403, "forbidden");
    assertError(as(CONSUMER, "POST", "/v1/queues/other/claim", "{}"), 403, "forbidden");

    assertThat(digest(redis)).isEqualTo(before);
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @CsvSource({
    "PRODUCER, PUT, /v1/queues/orders",
    "CONSUMER, PUT, /v1/queues/orders",
    "PRODUCER, DELETE, /v1/queues/orders/dead",
    "CONSUMER, DELETE, /v1/queues/orders/dead",
    "PRODUCER, POST, /v1/queues/orders/dead/requeue",
    "CONSUMER, POST, /v1/queues/orders/dead/a/requeue",
    "PRODUCER, POST, /v1/queues/orders/pause",
    "CONSUMER, POST, /v1/queues/orders/resume",
    "PRODUCER, DELETE, /v1/queues/orders",
    "CONSUMER, DELETE, /v1/queues/orders?force=true"
  })
  void onlyAnAdminMayChangeSettingsDeadLettersOrLifecycle(String who, String method, String path) {
    enqueueAs(ADMIN, "orders", "a");
    String token = who.equals("PRODUCER") ? PRODUCER : CONSUMER;
    String before = digest(redis);

    assertError(as(token, method, path, j("{'defaults':{'maxAttempts':2}}")), 403, "forbidden");

    assertThat(digest(redis)).isEqualTo(before);
  }

  @Test
  void allowedRequestsSucceed() {
    enqueueAs(PRODUCER, "orders-eu", "a");
    assertJson(as(PRODUCER, "GET", "/v1/queues/orders-eu/jobs/a", null), 200);
    assertJson(as(CONSUMER, "GET", "/v1/queues/orders-eu", null), 200);

    JsonNode jobs = assertJson(as(CONSUMER, "POST", "/v1/queues/orders-eu/claim", "{}"), 200);
    String receipt = jobs.get("jobs").get(0).get("receipt").asText();
    TestServer.Response ack =
        as(
            CONSUMER,
            "POST",
            "/v1/queues/orders-eu/jobs/a/ack",
            "{\"receipt\":\"" + receipt + "\"}");
    assertThat(ack.status()).as(ack.body()).isEqualTo(204);

    assertJson(as(ADMIN, "PUT", "/v1/queues/other", j("{'defaults':{'maxAttempts':2}}")), 201);
    assertJson(as(ADMIN, "DELETE", "/v1/queues/orders-eu/dead", null), 200);
    assertJson(as(ADMIN, "POST", "/v1/queues/other/jobs", j("{'payload':1}")), 201);
    assertThat(as(PRODUCER, "GET", "/metrics", null).status()).isEqualTo(200);
  }

  @Test
  void healthAndDashboardNeedNoToken() {
    assertJson(s.get("/health/live"), 200);
    assertJson(s.get("/health/ready"), 200);
    assertThat(s.get("/").status()).isEqualTo(200);
  }

  @Test
  void queueListShowsOnlyTheQueuesTheTokenMaySee() {
    enqueueAs(ADMIN, "orders-a", "a");
    enqueueAs(ADMIN, "orders-b", "b");
    enqueueAs(ADMIN, "other", "c");

    JsonNode forProducer = assertJson(as(PRODUCER, "GET", "/v1/queues", null), 200);
    JsonNode forAdmin = assertJson(as(ADMIN, "GET", "/v1/queues", null), 200);

    assertThat(namesOf(forProducer.get("queues")))
        .containsExactlyInAnyOrder("orders-a", "orders-b");
    assertThat(namesOf(forAdmin.get("queues")))
        .containsExactlyInAnyOrder("orders-a", "orders-b", "other");
  }
}
