package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.CLOCK_SLACK_MS;
import static dev.hourglass.server.ContractSupport.JOB_FIELDS;
import static dev.hourglass.server.ContractSupport.assertError;
import static dev.hourglass.server.ContractSupport.assertErrorEntry;
import static dev.hourglass.server.ContractSupport.assertInvalidField;
import static dev.hourglass.server.ContractSupport.assertJson;
import static dev.hourglass.server.ContractSupport.assertNoContent;
import static dev.hourglass.server.ContractSupport.assertRawPayload;
import static dev.hourglass.server.ContractSupport.claim;
import static dev.hourglass.server.ContractSupport.claimOne;
import static dev.hourglass.server.ContractSupport.digest;
import static dev.hourglass.server.ContractSupport.enqueue;
import static dev.hourglass.server.ContractSupport.fieldNames;
import static dev.hourglass.server.ContractSupport.getJob;
import static dev.hourglass.server.ContractSupport.j;
import static dev.hourglass.server.ContractSupport.namesOf;
import static dev.hourglass.server.ContractSupport.parse;
import static dev.hourglass.server.ContractSupport.receiptBody;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hourglass.QueueStats;
import java.time.Duration;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** API.md "Jobs": enqueue (one and batch), get, cancel, reschedule, against a real Redis. */
class ContractJobsTest extends ContractTestBase {

  private static final int ONE_MIB = 1024 * 1024;

  // ---- POST /v1/queues/{queue}/jobs ----

  @Test
  void enqueueWithoutDelayAnswers201Ready() {
    long before = System.currentTimeMillis();
    JsonNode body = enqueue(s, "orders", j("{'id':'order-42','payload':{'n':1}}"));
    long after = System.currentTimeMillis();

    assertThat(fieldNames(body)).containsExactlyInAnyOrder("id", "queue", "runAt", "state");
    assertThat(body.get("id").asText()).isEqualTo("order-42");
    assertThat(body.get("queue").asText()).isEqualTo("orders");
    assertThat(body.get("state").asText()).isEqualTo("ready");
    assertThat(body.get("runAt").isIntegralNumber()).isTrue();
    assertThat(body.get("runAt").asLong())
        .isBetween(before - CLOCK_SLACK_MS, after + CLOCK_SLACK_MS);

    assertThat(getJob(s, "orders", "order-42").get("state").asText()).isEqualTo("ready");
    QueueStats stats = stats("orders");
    assertThat(stats.ready()).isEqualTo(1);
    assertThat(stats.counters().enqueued()).isEqualTo(1);
  }

  @Test
  void enqueueWithDelayMsIsDelayedUntilNowPlusDelay() {
    long before = System.currentTimeMillis();
    JsonNode body = enqueue(s, "q", j("{'id':'a','payload':1,'delayMs':60000}"));
    long after = System.currentTimeMillis();

    assertThat(body.get("state").asText()).isEqualTo("delayed");
    assertThat(body.get("runAt").asLong())
        .isBetween(before + 60_000 - CLOCK_SLACK_MS, after + 60_000 + CLOCK_SLACK_MS);
    JsonNode job = getJob(s, "q", "a");
    assertThat(job.get("state").asText()).isEqualTo("delayed");
    assertThat(job.get("runAt").asLong()).isEqualTo(body.get("runAt").asLong());
    assertThat(stats("q").delayed()).isEqualTo(1);
    assertThat(claim(s, "q", "{}")).as("a delayed job is not claimable").isEmpty();
  }

  @Test
  void enqueueWithRunAtInTheFutureIsDelayedUntilExactlyThen() {
    long runAt = System.currentTimeMillis() + 3_600_000;
    JsonNode body = enqueue(s, "q", "{\"id\":\"a\",\"payload\":1,\"runAt\":" + runAt + "}");

    assertThat(body.get("state").asText()).isEqualTo("delayed");
    assertThat(body.get("runAt").asLong()).isEqualTo(runAt);
    assertThat(getJob(s, "q", "a").get("runAt").asLong()).isEqualTo(runAt);
  }

  @Test
  void enqueueWithRunAtInThePastIsReady() {
    long runAt = System.currentTimeMillis() - 60_000;
    JsonNode body = enqueue(s, "q", "{\"id\":\"a\",\"payload\":1,\"runAt\":" + runAt + "}");

    assertThat(body.get("state").asText()).isEqualTo("ready");
    assertThat(claimOne(s, "q").get("id").asText()).isEqualTo("a");
  }

  @ParameterizedTest
  @ValueSource(
      longs = {
        4_102_444_800_000L, // 2100-01-01
        99_999_999_999_999L,
        1L << 47,
        999_999_999_999_999L,
        (1L << 53) + 1,
        Long.MAX_VALUE
      })
  void aRunAtTheServerAcceptsIsKeptExactly(long runAt) {
    // API.md sets no upper bound on runAt; whatever the server accepts it must keep as given.
    TestServer.Response r =
        s.post("/v1/queues/q/jobs", "{\"id\":\"a\",\"payload\":1,\"runAt\":" + runAt + "}");

    if (r.status() == 201) {
      assertThat(r.json().get("runAt").asLong()).isEqualTo(runAt);
      assertThat(getJob(s, "q", "a").get("runAt").asLong()).isEqualTo(runAt);
    } else {
      assertInvalidField(r, "runAt");
    }
    enqueue(s, "q", j("{'id':'b','payload':1,'delayMs':60000}"));
    TestServer.Response moved =
        s.call("PUT", "/v1/queues/q/jobs/b/schedule", "{\"runAt\":" + runAt + "}");
    if (moved.status() == 200) {
      assertThat(moved.json().get("runAt").asLong()).isEqualTo(runAt);
      assertThat(getJob(s, "q", "b").get("runAt").asLong()).isEqualTo(runAt);
    } else {
      assertInvalidField(moved, "runAt");
    }
  }

  @Test
  void enqueueWithDelayMsZeroIsReady() {
    assertThat(enqueue(s, "q", j("{'payload':1,'delayMs':0}")).get("state").asText())
        .isEqualTo("ready");
  }

  @Test
  void enqueueWithoutIdGeneratesA22CharacterId() {
    JsonNode first = enqueue(s, "q", j("{'payload':1}"));
    JsonNode second = enqueue(s, "q", j("{'payload':2}"));

    String id = first.get("id").asText();
    assertThat(id).matches("[A-Za-z0-9_-]{19}\\.[A-Za-z0-9_-]");
    assertThat(second.get("id").asText())
        .matches("[A-Za-z0-9_-]{19}\\.[A-Za-z0-9_-]")
        .isNotEqualTo(id);
    assertThat(getJob(s, "q", id).get("payload").asInt()).isEqualTo(1);
    assertThat(stats("q").ready()).isEqualTo(2);
  }

  @Test
  void idOf128AllowedCharactersIsAccepted() {
    String id = "Az09._:-" + "x".repeat(120);
    assertThat(enqueue(s, "q", "{\"id\":\"" + id + "\",\"payload\":1}").get("id").asText())
        .isEqualTo(id);
    assertThat(getJob(s, "q", id).get("id").asText()).isEqualTo(id);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"a\": [1, 2]}",
        "{ \"nested\" : { \"k\" : [ true , null , \"x\" ] } }",
        "{}",
        "[1, \"two\", {\"three\": 3.0}]",
        "[]",
        "\"plain string\"",
        "\"with \\\"quotes\\\", \\\\ and \\u00e9 and é and 😀\"",
        "\"\"",
        "2.50",
        "1e3",
        "-0.0",
        "12345678901234567890123",
        "true",
        "false",
        "null"
      })
  void payloadOfEveryJsonTypeComesBackByteForByte(String payload) {
    enqueue(s, "q", "{\"id\":\"p\",\"payload\":" + payload + "}");

    TestServer.Response got = s.get("/v1/queues/q/jobs/p");
    assertJson(got, 200);
    assertRawPayload(got.body(), payload);

    TestServer.Response claimed = s.post("/v1/queues/q/claim", "{}");
    assertJson(claimed, 200);
    assertRawPayload(claimed.body(), payload);
  }

  @Test
  void jobTakesTheQueueDefaultsWhenItGivesNone() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));

    JsonNode job = getJob(s, "q", "a");
    assertThat(job.get("maxAttempts").asInt()).isEqualTo(5);
    assertThat(job.get("attempts").asInt()).isZero();

    long before = System.currentTimeMillis();
    JsonNode delivery = claimOne(s, "q");
    long after = System.currentTimeMillis();
    assertThat(delivery.get("leaseUntil").asLong())
        .as("default visibility 30000 ms")
        .isBetween(before + 30_000 - CLOCK_SLACK_MS, after + 30_000 + CLOCK_SLACK_MS);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{'type':'exponential','baseMs':2000,'maxMs':600000,'jitter':0.5}",
        "{'type':'fixed','delayMs':5000}",
        "{'type':'schedule','delaysMs':[15000,180000,600000]}"
      })
  void backoffOfEachTypeIsReadBackByGet(String backoff) {
    enqueue(s, "q", j("{'id':'a','payload':1,'backoff':" + backoff + "}"));

    assertThat(getJob(s, "q", "a").get("backoff")).isEqualTo(parse(j(backoff)));
  }

  @Test
  void exponentialBackoffWithoutJitterReadsBackTheDefaultJitter() {
    enqueue(
        s,
        "q",
        j("{'id':'a','payload':1,'backoff':{'type':'exponential','baseMs':1000,'maxMs':9000}}"));

    assertThat(getJob(s, "q", "a").get("backoff"))
        .isEqualTo(parse(j("{'type':'exponential','baseMs':1000,'maxMs':9000,'jitter':0.2}")));
  }

  @Test
  void visibilityMsOfTheJobSetsItsLease() {
    enqueue(s, "q", j("{'id':'a','payload':1,'visibilityMs':5000}"));

    long before = System.currentTimeMillis();
    JsonNode delivery = claimOne(s, "q");
    long after = System.currentTimeMillis();
    assertThat(delivery.get("leaseUntil").asLong())
        .isBetween(before + 5_000 - CLOCK_SLACK_MS, after + 5_000 + CLOCK_SLACK_MS);
  }

  @Test
  void ttlMsDropsAJobNotAckedWithinItsTtl() {
    // A ttl below the delay is refused (API.md 1.1): the job gets its delay by a reschedule.
    enqueue(s, "q", j("{'id':'a','payload':1,'ttlMs':500}"));
    assertThat(s.call("PUT", "/v1/queues/q/jobs/a/schedule", j("{'delayMs':60000}")).status())
        .isEqualTo(200);
    assertThat(getJob(s, "q", "a").get("state").asText()).isEqualTo("delayed");
    claim(s, "q", "{}"); // starts the queue's promoter in the server, which drops expired jobs

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertError(s.get("/v1/queues/q/jobs/a"), 404, "job_not_found"));
    assertThat(stats("q").counters().expired()).isEqualTo(1);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"payload\":",
        "{\"payload\":1",
        "{payload:1}",
        "{'payload':1}",
        "[{\"payload\":1}]",
        "\"payload\"",
        "42",
        "null",
        "{\"payload\":1} x",
        "{\"payload\":1}{}",
        "{\"payload\":1,\"payload\":2}",
        "{\"id\":\"a\",\"id\":\"b\",\"payload\":1}",
        "{\"payload\":1,}",
        "{\"payload\":tru}"
      })
  void malformedBodyIs400InvalidJsonAndWritesNothing(String body) {
    enqueue(s, "q", j("{'id':'seed','payload':1,'delayMs':60000}"));
    String before = digest(redis);

    assertError(s.post("/v1/queues/q/jobs", body), 400, "invalid_json");
    assertError(s.post("/v1/queues/fresh/jobs", body), 400, "invalid_json");

    assertThat(digest(redis)).as("Redis is unchanged").isEqualTo(before);
    assertError(s.get("/v1/queues/fresh"), 404, "queue_not_found");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "{'id':'has space','payload':1}                      | id",
        "{'id':'','payload':1}                               | id",
        "{'id':'a/b','payload':1}                            | id",
        "{'id':5,'payload':1}                                | id",
        "{'id':'LONG','payload':1}                           | id",
        "{'payload':1,'delayMs':-1}                          | delayMs",
        "{'payload':1,'delayMs':'5'}                         | delayMs",
        "{'payload':1,'delayMs':1.5}                         | delayMs",
        "{'payload':1,'runAt':'2026-01-01T00:00:00Z'}        | runAt",
        "{'payload':1,'runAt':-1}                            | runAt",
        "{'payload':1,'maxAttempts':0}                       | maxAttempts",
        "{'payload':1,'maxAttempts':1001}                    | maxAttempts",
        "{'payload':1,'maxAttempts':'5'}                     | maxAttempts",
        "{'payload':1,'maxAttempts':true}                    | maxAttempts",
        "{'payload':1,'backoff':'fixed'}                     | backoff",
        "{'payload':1,'backoff':{'type':'linear'}}           | backoff.type",
        "{'payload':1,'backoff':{}}                          | backoff.type",
        "{'payload':1,'backoff':{'type':'fixed'}}            | backoff.delayMs",
        "{'payload':1,'backoff':{'type':'fixed','delayMs':-1}} | backoff.delayMs",
        "{'payload':1,'backoff':{'type':'exponential','baseMs':1000}} | backoff.maxMs",
        "{'payload':1,'backoff':{'type':'exponential','baseMs':5000,'maxMs':1000}} | backoff.maxMs",
        "{'payload':1,'backoff':{'type':'exponential','baseMs':0,'maxMs':1000}} | backoff.baseMs",
        "{'payload':1,'backoff':{'type':'exponential','baseMs':1,'maxMs':2,'jitter':2}} | backoff.jitter",
        "{'payload':1,'backoff':{'type':'schedule','delaysMs':[]}} | backoff.delaysMs",
        "{'payload':1,'backoff':{'type':'schedule','delaysMs':['1s']}} | backoff.delaysMs",
        "{'payload':1,'visibilityMs':0}                      | visibilityMs",
        "{'payload':1,'visibilityMs':'30s'}                  | visibilityMs",
        "{'payload':1,'ttlMs':0}                             | ttlMs",
        "{'payload':1,'ttlMs':-5}                            | ttlMs",
        "{'id':'a'}                                          | payload",
        "{}                                                  | payload",
      })
  void invalidFieldIs400NamingTheFieldAndWritesNothing(String body, String field) {
    enqueue(s, "q", j("{'id':'seed','payload':1,'delayMs':60000}"));
    String request = j(body).replace("LONG", "x".repeat(129));
    String before = digest(redis);

    assertInvalidField(s.post("/v1/queues/q/jobs", request), field);
    assertInvalidField(s.post("/v1/queues/fresh/jobs", request), field);

    assertThat(digest(redis)).as("Redis is unchanged").isEqualTo(before);
    assertError(s.get("/v1/queues/fresh"), 404, "queue_not_found");
  }

  @Test
  void emptyBodyIs400NamingPayload() {
    assertInvalidField(s.post("/v1/queues/q/jobs", ""), "payload");
    assertInvalidField(s.post("/v1/queues/q/jobs", null), "payload");
  }

  @Test
  void delayMsAndRunAtTogetherIs400NamingOneOfThem() {
    String before = digest(redis);
    String message =
        assertError(
            s.post("/v1/queues/q/jobs", j("{'payload':1,'delayMs':5,'runAt':1767225600000}")),
            400,
            "invalid_field");
    assertThat(message).matches("(delayMs|runAt).*");
    assertThat(digest(redis)).isEqualTo(before);
  }

  @ParameterizedTest
  @ValueSource(strings = {"has!bang", "a*b", "a%20b", "%C3%A9", "q:1"})
  void invalidQueueNameIs400AndWritesNothing(String queue) {
    String before = digest(redis);

    assertError(
        s.post("/v1/queues/" + queue + "/jobs", j("{'payload':1}")), 400, "invalid_queue_name");
    assertError(s.get("/v1/queues/" + queue), 400, "invalid_queue_name");
    assertError(s.get("/v1/queues/" + queue + "/jobs/a"), 400, "invalid_queue_name");

    assertThat(digest(redis)).isEqualTo(before);
  }

  @Test
  void queueNameOver100CharactersIs400() {
    assertError(
        s.post("/v1/queues/" + "q".repeat(101) + "/jobs", j("{'payload':1}")),
        400,
        "invalid_queue_name");
    enqueue(s, "q".repeat(100), j("{'payload':1}"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"delayed", "ready", "inflight", "dead"})
  void duplicateIdOfALiveJobIs409AndWritesNothing(String state) {
    enqueue(s, "q", j("{'id':'a','payload':'first'}"));
    switch (state) {
      case "delayed" ->
          assertJson(s.call("PUT", "/v1/queues/q/jobs/a/schedule", j("{'delayMs':60000}")), 200);
      case "inflight" -> claimOne(s, "q");
      case "dead" ->
          assertNoContent(
              s.post(
                  "/v1/queues/q/jobs/a/nack",
                  receiptBody(claimOne(s, "q")).replace("}", ",\"dead\":true}")));
      default -> {}
    }
    assertThat(getJob(s, "q", "a").get("state").asText()).isEqualTo(state);
    String before = digest(redis);

    assertError(
        s.post("/v1/queues/q/jobs", j("{'id':'a','payload':'second'}")), 409, "duplicate_id");

    assertThat(digest(redis)).isEqualTo(before);
    assertThat(getJob(s, "q", "a").get("payload").asText()).isEqualTo("first");
  }

  @Test
  void idOfAnAckedJobCanBeUsedAgain() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    assertNoContent(s.post("/v1/queues/q/jobs/a/ack", receiptBody(claimOne(s, "q"))));

    assertThat(enqueue(s, "q", j("{'id':'a','payload':2}")).get("id").asText()).isEqualTo("a");
  }

  @Test
  void payloadOverOneMibIs413AndWritesNothing() {
    enqueue(s, "q", j("{'id':'seed','payload':1,'delayMs':60000}"));
    String before = digest(redis);
    String tooLarge = "\"" + "x".repeat(ONE_MIB - 1) + "\""; // 1 MiB + 1 byte of JSON

    assertError(
        s.post("/v1/queues/q/jobs", "{\"id\":\"big\",\"payload\":" + tooLarge + "}"),
        413,
        "payload_too_large");

    assertThat(digest(redis)).isEqualTo(before);
  }

  @Test
  void payloadOfExactlyOneMibIsAccepted() {
    String exactly = "\"" + "x".repeat(ONE_MIB - 2) + "\"";
    enqueue(s, "q", "{\"id\":\"big\",\"payload\":" + exactly + "}");

    TestServer.Response got = s.get("/v1/queues/q/jobs/big");
    assertJson(got, 200);
    assertRawPayload(got.body(), exactly);
  }

  // ---- POST /v1/queues/{queue}/jobs/batch ----

  @Test
  void batchAnswersPerJobResultsInRequestOrder() {
    enqueue(s, "q", j("{'id':'taken','payload':0}"));
    String body =
        j(
            "{'jobs':["
                + "{'id':'a','payload':{'k': 1}},"
                + "{'id':'bad','payload':1,'maxAttempts':0},"
                + "{'id':'b','payload':2,'delayMs':60000},"
                + "5,"
                + "{'id':'taken','payload':3},"
                + "{'payload':4},"
                + "{'id':'nopayload'}"
                + "]}");

    JsonNode answer = assertJson(s.post("/v1/queues/q/jobs/batch", body), 200);

    assertThat(fieldNames(answer)).containsExactly("results");
    JsonNode results = answer.get("results");
    assertThat(results).hasSize(7);
    assertCreated(results.get(0), "a", "ready");
    assertThat(assertErrorEntry(results.get(1), "invalid_field")).startsWith("jobs[1].maxAttempts");
    assertCreated(results.get(2), "b", "delayed");
    assertThat(assertErrorEntry(results.get(3), "invalid_field")).startsWith("jobs[3]");
    assertErrorEntry(results.get(4), "duplicate_id");
    assertThat(results.get(5).get("id").asText()).matches("[A-Za-z0-9_-]{19}\\.[A-Za-z0-9_-]");
    assertCreated(results.get(5), results.get(5).get("id").asText(), "ready");
    assertThat(assertErrorEntry(results.get(6), "invalid_field")).startsWith("jobs[6].payload");

    TestServer.Response a = s.get("/v1/queues/q/jobs/a");
    assertRawPayload(a.body(), "{\"k\": 1}");
    assertThat(getJob(s, "q", "b").get("state").asText()).isEqualTo("delayed");
    assertThat(getJob(s, "q", "taken").get("payload").asInt()).isZero();
    assertError(s.get("/v1/queues/q/jobs/bad"), 404, "job_not_found");
    assertError(s.get("/v1/queues/q/jobs/nopayload"), 404, "job_not_found");
    assertThat(stats("q").counters().enqueued()).isEqualTo(4);
  }

  private static void assertCreated(JsonNode result, String id, String state) {
    assertThat(result.has("error")).as("result %s", result).isFalse();
    assertThat(fieldNames(result)).as("result %s", result).contains("id", "state");
    assertThat(result.get("id").asText()).isEqualTo(id);
    assertThat(result.get("state").asText()).isEqualTo(state);
  }

  @Test
  void batchWithTheSameIdTwiceCreatesTheFirstAndReportsTheSecond() {
    JsonNode results =
        assertJson(
                s.post(
                    "/v1/queues/q/jobs/batch",
                    j("{'jobs':[{'id':'a','payload':1},{'id':'a','payload':2}]}")),
                200)
            .get("results");

    assertCreated(results.get(0), "a", "ready");
    assertErrorEntry(results.get(1), "duplicate_id");
    assertThat(getJob(s, "q", "a").get("payload").asInt()).isEqualTo(1);
  }

  @Test
  void batchJobWithPayloadTooLargeFailsAloneWith413Code() {
    String tooLarge = "\"" + "x".repeat(ONE_MIB) + "\"";
    JsonNode results =
        assertJson(
                s.post(
                    "/v1/queues/q/jobs/batch",
                    "{\"jobs\":[{\"id\":\"big\",\"payload\":"
                        + tooLarge
                        + "},{\"id\":\"small\",\"payload\":1}]}"),
                200)
            .get("results");

    assertErrorEntry(results.get(0), "payload_too_large");
    assertCreated(results.get(1), "small", "ready");
  }

  @Test
  void batchOf1000JobsIsAccepted() {
    String jobs =
        IntStream.range(0, 1000)
            .mapToObj(i -> "{\"id\":\"j" + i + "\",\"payload\":" + i + "}")
            .collect(Collectors.joining(",", "{\"jobs\":[", "]}"));

    JsonNode results = assertJson(s.post("/v1/queues/q/jobs/batch", jobs), 200).get("results");

    assertThat(results).hasSize(1000);
    assertThat(results.get(999).get("id").asText()).isEqualTo("j999");
    assertThat(stats("q").ready()).isEqualTo(1000);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1001})
  void batchOutside1To1000JobsIs400AndWritesNothing(int count) {
    String jobs =
        IntStream.range(0, count)
            .mapToObj(i -> "{\"payload\":" + i + "}")
            .collect(Collectors.joining(",", "{\"jobs\":[", "]}"));
    String before = digest(redis);

    assertInvalidField(s.post("/v1/queues/q/jobs/batch", jobs), "jobs");

    assertThat(digest(redis)).isEqualTo(before);
  }

  @ParameterizedTest
  @ValueSource(strings = {"{'jobs':{}}", "{'jobs':'x'}", "{'jobs':5}", "{}", "{'jobs':null}"})
  void batchWithoutAJobsArrayIs400InvalidFieldJobs(String body) {
    String before = digest(redis);

    assertInvalidField(s.post("/v1/queues/q/jobs/batch", j(body)), "jobs");

    assertThat(digest(redis)).isEqualTo(before);
  }

  @ParameterizedTest
  @ValueSource(strings = {"[{\"payload\":1}]", "{\"jobs\":[", "{\"jobs\":[],\"jobs\":[]}"})
  void malformedBatchIs400InvalidJson(String body) {
    assertError(s.post("/v1/queues/q/jobs/batch", body), 400, "invalid_json");
  }

  // ---- GET /v1/queues/{queue}/jobs/{id} ----

  @Test
  void getAnswersTheJob() {
    long before = System.currentTimeMillis();
    enqueue(s, "q", j("{'id':'a','payload':{'k':[1,2]},'delayMs':60000,'maxAttempts':3}"));
    long after = System.currentTimeMillis();

    JsonNode job = getJob(s, "q", "a");

    assertThat(fieldNames(job)).containsAll(JOB_FIELDS).doesNotContain("lastError");
    assertThat(job.get("id").asText()).isEqualTo("a");
    assertThat(job.get("queue").asText()).isEqualTo("q");
    assertThat(job.get("state").asText()).isEqualTo("delayed");
    assertThat(job.get("runAt").isIntegralNumber()).isTrue();
    assertThat(job.get("attempts").isIntegralNumber()).isTrue();
    assertThat(job.get("attempts").asInt()).isZero();
    assertThat(job.get("maxAttempts").asInt()).isEqualTo(3);
    assertThat(job.get("createdAt").isIntegralNumber()).isTrue();
    assertThat(job.get("createdAt").asLong())
        .isBetween(before - CLOCK_SLACK_MS, after + CLOCK_SLACK_MS);
    assertThat(job.get("runAt").asLong()).isEqualTo(job.get("createdAt").asLong() + 60_000);
    assertThat(job.get("payload")).isEqualTo(parse("{\"k\":[1,2]}"));
  }

  @Test
  void getOfAnUnknownJobIs404JobNotFound() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));

    assertError(s.get("/v1/queues/q/jobs/nope"), 404, "job_not_found");
  }

  @Test
  void getInAnUnknownQueueIs404QueueNotFoundAndDoesNotCreateIt() {
    enqueue(s, "known", j("{'id':'a','payload':1}"));
    String before = digest(redis);

    assertError(s.get("/v1/queues/unknown/jobs/a"), 404, "queue_not_found");

    assertThat(digest(redis)).isEqualTo(before);
    JsonNode queues = assertJson(s.get("/v1/queues"), 200).get("queues");
    assertThat(namesOf(queues)).containsExactly("known");
    assertError(s.get("/v1/queues/unknown"), 404, "queue_not_found");
  }

  // ---- DELETE /v1/queues/{queue}/jobs/{id} ----

  @Test
  void deleteCancelsTheJob() {
    enqueue(s, "q", j("{'id':'a','payload':1,'delayMs':60000}"));
    enqueue(s, "q", j("{'id':'b','payload':1}"));

    assertNoContent(s.call("DELETE", "/v1/queues/q/jobs/a", null));
    assertNoContent(s.call("DELETE", "/v1/queues/q/jobs/b", null));

    assertError(s.get("/v1/queues/q/jobs/a"), 404, "job_not_found");
    QueueStats stats = stats("q");
    assertThat(stats.total()).isZero();
    assertThat(stats.counters().cancelled()).isEqualTo(2);
  }

  @Test
  void deleteOfADeadJobRemovesIt() {
    enqueue(s, "q", j("{'id':'a','payload':1,'maxAttempts':1}"));
    assertNoContent(s.post("/v1/queues/q/jobs/a/nack", receiptBody(claimOne(s, "q"))));
    assertThat(getJob(s, "q", "a").get("state").asText()).isEqualTo("dead");

    assertNoContent(s.call("DELETE", "/v1/queues/q/jobs/a", null));

    assertThat(stats("q").dead()).isZero();
  }

  @Test
  void deleteOfAnUnknownJobIs404() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    assertNoContent(s.call("DELETE", "/v1/queues/q/jobs/a", null));

    assertError(s.call("DELETE", "/v1/queues/q/jobs/a", null), 404, "job_not_found");
    assertError(s.call("DELETE", "/v1/queues/unknown/jobs/a", null), 404, "queue_not_found");
  }

  @Test
  void deleteOfAnInflightJobIs409JobInflight() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    claimOne(s, "q");
    String before = digest(redis);

    assertError(s.call("DELETE", "/v1/queues/q/jobs/a", null), 409, "job_inflight");

    assertThat(digest(redis)).isEqualTo(before);
    assertThat(getJob(s, "q", "a").get("state").asText()).isEqualTo("inflight");
  }

  // ---- PUT /v1/queues/{queue}/jobs/{id}/schedule ----

  @Test
  void rescheduleWithDelayMsAnswersTheJobAsGetDoes() {
    enqueue(s, "q", j("{'id':'a','payload':{'k':1}}"));

    long before = System.currentTimeMillis();
    TestServer.Response r = s.call("PUT", "/v1/queues/q/jobs/a/schedule", j("{'delayMs':120000}"));
    long after = System.currentTimeMillis();

    JsonNode answer = assertJson(r, 200);
    assertThat(answer).isEqualTo(getJob(s, "q", "a"));
    assertThat(answer.get("state").asText()).isEqualTo("delayed");
    assertThat(answer.get("runAt").asLong())
        .isBetween(before + 120_000 - CLOCK_SLACK_MS, after + 120_000 + CLOCK_SLACK_MS);
    assertRawPayload(r.body(), "{\"k\":1}");
    assertThat(stats("q").delayed()).isEqualTo(1);
  }

  @Test
  void rescheduleWithRunAtSetsExactlyThatTime() {
    enqueue(s, "q", j("{'id':'a','payload':1,'delayMs':60000}"));
    long runAt = System.currentTimeMillis() + 7_200_000;

    JsonNode answer =
        assertJson(s.call("PUT", "/v1/queues/q/jobs/a/schedule", "{\"runAt\":" + runAt + "}"), 200);

    assertThat(answer.get("runAt").asLong()).isEqualTo(runAt);
    assertThat(getJob(s, "q", "a").get("runAt").asLong()).isEqualTo(runAt);
  }

  @Test
  void rescheduleOfADelayedJobToNowMakesItReady() {
    enqueue(s, "q", j("{'id':'a','payload':1,'delayMs':60000}"));

    JsonNode answer =
        assertJson(s.call("PUT", "/v1/queues/q/jobs/a/schedule", j("{'delayMs':0}")), 200);

    assertThat(answer.get("state").asText()).isEqualTo("ready");
    assertThat(claimOne(s, "q").get("id").asText()).isEqualTo("a");
  }

  @Test
  void rescheduleOfAnUnknownJobIs404() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));

    assertError(
        s.call("PUT", "/v1/queues/q/jobs/nope/schedule", j("{'delayMs':1000}")),
        404,
        "job_not_found");
    assertError(
        s.call("PUT", "/v1/queues/unknown/jobs/a/schedule", j("{'delayMs':1000}")),
        404,
        "queue_not_found");
  }

  @Test
  void rescheduleOfAnInflightJobIs409JobInflight() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    claimOne(s, "q");
    String before = digest(redis);

    assertError(
        s.call("PUT", "/v1/queues/q/jobs/a/schedule", j("{'delayMs':1000}")), 409, "job_inflight");

    assertThat(digest(redis)).isEqualTo(before);
  }

  @Test
  void rescheduleOfADeadJobIs409() {
    enqueue(s, "q", j("{'id':'a','payload':1,'maxAttempts':1}"));
    assertNoContent(s.post("/v1/queues/q/jobs/a/nack", receiptBody(claimOne(s, "q"))));

    // API.md names no code for this; the server answers job_dead.
    assertError(
        s.call("PUT", "/v1/queues/q/jobs/a/schedule", j("{'delayMs':1000}")), 409, "job_dead");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{}",
        "{'delayMs':1000,'runAt':1767225600000}",
        "{'delayMs':-1}",
        "{'delayMs':'1000'}",
        "{'runAt':'tomorrow'}"
      })
  void rescheduleWithoutExactlyOneValidTimeIs400AndWritesNothing(String body) {
    enqueue(s, "q", j("{'id':'a','payload':1,'delayMs':60000}"));
    String before = digest(redis);

    String message =
        assertError(s.call("PUT", "/v1/queues/q/jobs/a/schedule", j(body)), 400, "invalid_field");

    assertThat(message).matches("(delayMs|runAt).*");
    assertThat(digest(redis)).isEqualTo(before);
  }
}
