package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.CLOCK_SLACK_MS;
import static dev.hourglass.server.ContractSupport.assertError;
import static dev.hourglass.server.ContractSupport.assertInvalidField;
import static dev.hourglass.server.ContractSupport.assertJson;
import static dev.hourglass.server.ContractSupport.assertNoContent;
import static dev.hourglass.server.ContractSupport.claim;
import static dev.hourglass.server.ContractSupport.claimOne;
import static dev.hourglass.server.ContractSupport.digest;
import static dev.hourglass.server.ContractSupport.enqueue;
import static dev.hourglass.server.ContractSupport.fieldNames;
import static dev.hourglass.server.ContractSupport.getJob;
import static dev.hourglass.server.ContractSupport.j;
import static dev.hourglass.server.ContractSupport.namesOf;
import static dev.hourglass.server.ContractSupport.parse;
import static dev.hourglass.server.ContractSupport.queueView;
import static dev.hourglass.server.ContractSupport.receiptBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** API.md "Queues" and the delivery settings of "Consuming (push)". */
class ContractQueuesTest extends ContractTestBase {

  private static final String DEFAULT_DEFAULTS =
      j(
          "{'maxAttempts':5,"
              + "'backoff':{'type':'exponential','baseMs':1000,'maxMs':3600000,'jitter':0.2},"
              + "'visibilityMs':30000,'ttlMs':null,'priority':0}");

  private TestServer.Response put(String queue, String body) {
    return s.call("PUT", "/v1/queues/" + queue, body);
  }

  // ---- GET /v1/queues ----

  @Test
  void listOfNoQueuesIsEmpty() {
    JsonNode body = assertJson(s.get("/v1/queues"), 200);

    assertThat(body).isEqualTo(parse("{\"queues\":[]}"));
  }

  @Test
  void listAnswersEachQueueWithItsCounts() {
    enqueue(s, "a", j("{'id':'d','payload':1,'delayMs':60000}"));
    enqueue(s, "a", j("{'id':'r1','payload':1}"));
    enqueue(s, "a", j("{'id':'r2','payload':1}"));
    enqueue(s, "b", j("{'id':'i','payload':1}"));
    enqueue(s, "b", j("{'id':'x','payload':1,'maxAttempts':1,'delayMs':60000}"));
    claimOne(s, "b");
    assertJson(s.call("PUT", "/v1/queues/b/jobs/x/schedule", j("{'delayMs':0}")), 200);
    JsonNode x = claimOne(s, "b");
    assertNoContent(s.post("/v1/queues/b/jobs/x/nack", receiptBody(x)));

    JsonNode body = assertJson(s.get("/v1/queues"), 200);

    assertThat(fieldNames(body)).containsExactly("queues");
    JsonNode queues = body.get("queues");
    assertThat(namesOf(queues)).containsExactlyInAnyOrder("a", "b");
    for (JsonNode q : queues) {
      assertThat(fieldNames(q)).contains("name", "delayed", "ready", "inflight", "dead");
      String expected =
          q.get("name").asText().equals("a")
              ? "{'name':'a','delayed':1,'ready':2,'inflight':0,'dead':0,'paused':false}"
              : "{'name':'b','delayed':0,'ready':0,'inflight':1,'dead':1,'paused':false}";
      assertThat(q).isEqualTo(parse(j(expected)));
    }
  }

  // ---- GET /v1/queues/{queue} ----

  @Test
  void getAnswersCountsSettingsAndCounters() {
    String fixed = ",'backoff':{'type':'fixed','delayMs':60000}";
    enqueue(s, "q", j("{'id':'a','payload':1" + fixed + "}"));
    enqueue(s, "q", j("{'id':'b','payload':1" + fixed + "}"));
    enqueue(s, "q", j("{'id':'c','payload':1,'delayMs':60000}"));
    JsonNode first = claimOne(s, "q");
    JsonNode second = claimOne(s, "q");
    assertNoContent(
        s.post("/v1/queues/q/jobs/" + first.get("id").asText() + "/ack", receiptBody(first)));
    assertNoContent(
        s.post("/v1/queues/q/jobs/" + second.get("id").asText() + "/nack", receiptBody(second)));

    JsonNode view = queueView(s, "q");

    assertThat(fieldNames(view))
        .contains(
            "name",
            "delayed",
            "ready",
            "inflight",
            "dead",
            "partitions",
            "defaults",
            "delivery",
            "counters");
    assertThat(view.get("name").asText()).isEqualTo("q");
    assertThat(view.get("delayed").asLong()).isEqualTo(2);
    assertThat(view.get("ready").asLong()).isZero();
    assertThat(view.get("inflight").asLong()).isZero();
    assertThat(view.get("dead").asLong()).isZero();
    assertThat(view.get("partitions").asInt()).isEqualTo(1);
    assertThat(view.get("defaults")).isEqualTo(parse(DEFAULT_DEFAULTS));
    assertThat(view.get("delivery")).isEqualTo(parse(j("{'type':'pull'}")));
    JsonNode counters = view.get("counters");
    assertThat(fieldNames(counters)).contains("enqueued", "acked", "retried", "dead");
    assertThat(counters.get("enqueued").asLong()).isEqualTo(3);
    assertThat(counters.get("acked").asLong()).isEqualTo(1);
    assertThat(counters.get("retried").asLong()).isEqualTo(1);
    assertThat(counters.get("dead").asLong()).isZero();
  }

  @Test
  void getOfAnUnknownQueueIs404AndDoesNotCreateIt() {
    String before = digest(redis);

    assertError(s.get("/v1/queues/unknown"), 404, "queue_not_found");

    assertThat(digest(redis)).isEqualTo(before);
    assertThat(assertJson(s.get("/v1/queues"), 200).get("queues")).isEmpty();
  }

  @Test
  void firstEnqueueCreatesTheQueueWithDefaults() {
    enqueue(s, "implicit", j("{'payload':1}"));

    JsonNode view = queueView(s, "implicit");
    assertThat(view.get("partitions").asInt()).isEqualTo(1);
    assertThat(view.get("defaults")).isEqualTo(parse(DEFAULT_DEFAULTS));
    assertThat(namesOf(assertJson(s.get("/v1/queues"), 200).get("queues")))
        .containsExactly("implicit");
  }

  // ---- PUT /v1/queues/{queue} ----

  @Test
  void putCreatesTheQueueWith201AndItsDefaultsApplyToNewJobs() {
    String defaults =
        j(
            "{'maxAttempts':7,'backoff':{'type':'fixed','delayMs':45000},"
                + "'visibilityMs':12345,'ttlMs':86400000,'priority':0}");

    JsonNode created = assertJson(put("q", "{\"defaults\":" + defaults + "}"), 201);

    assertThat(created.get("name").asText()).isEqualTo("q");
    assertThat(created.get("defaults")).isEqualTo(parse(defaults));
    assertThat(created).isEqualTo(queueView(s, "q"));
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    JsonNode job = getJob(s, "q", "a");
    assertThat(job.get("maxAttempts").asInt()).isEqualTo(7);
    long before = System.currentTimeMillis();
    JsonNode d = claimOne(s, "q");
    long after = System.currentTimeMillis();
    assertThat(d.get("leaseUntil").asLong()).isBetween(before + 12_345 - 50, after + 12_345 + 50);
    before = System.currentTimeMillis();
    assertNoContent(s.post("/v1/queues/q/jobs/a/nack", receiptBody(d)));
    after = System.currentTimeMillis();
    assertThat(getJob(s, "q", "a").get("runAt").asLong())
        .as("the queue's fixed backoff")
        .isBetween(before + 45_000 - CLOCK_SLACK_MS, after + 45_000 + CLOCK_SLACK_MS);
  }

  @Test
  void putUpdatesAnExistingQueueWith200() {
    enqueue(s, "q", j("{'id':'old','payload':1}"));

    JsonNode updated =
        assertJson(put("q", j("{'defaults':{'maxAttempts':9,'visibilityMs':5000}}")), 200);

    assertThat(updated.get("defaults").get("maxAttempts").asInt()).isEqualTo(9);
    assertThat(updated.get("defaults").get("visibilityMs").asLong()).isEqualTo(5000);
    assertThat(updated.get("defaults").get("backoff"))
        .as("fields not given keep their value")
        .isEqualTo(parse(DEFAULT_DEFAULTS).get("backoff"));
    assertThat(updated.get("ready").asLong()).isEqualTo(1);
    enqueue(s, "q", j("{'id':'new','payload':1}"));
    assertThat(getJob(s, "q", "new").get("maxAttempts").asInt()).isEqualTo(9);
    assertThat(getJob(s, "q", "old").get("maxAttempts").asInt())
        .as("a job keeps the defaults it was created with")
        .isEqualTo(5);
  }

  @Test
  void putWithPartitionsCreatesAPartitionedQueue() {
    JsonNode created = assertJson(put("p", j("{'partitions':4}")), 201);

    assertThat(created.get("partitions").asInt()).isEqualTo(4);
    assertThat(queueView(s, "p").get("partitions").asInt()).isEqualTo(4);
    for (int i = 0; i < 20; i++) {
      enqueue(s, "p", "{\"id\":\"j" + i + "\",\"payload\":" + i + "}");
    }
    assertThat(queueView(s, "p").get("ready").asLong()).isEqualTo(20);
    int claimed = 0;
    for (int round = 0; round < 10 && claimed < 20; round++) {
      claimed += claim(s, "p", j("{'max':100}")).size();
    }
    assertThat(claimed).as("every partition is claimed from").isEqualTo(20);
  }

  @Test
  void putWithTheSamePartitionsIsAccepted() {
    assertJson(put("p", j("{'partitions':4}")), 201);

    assertThat(assertJson(put("p", j("{'partitions':4}")), 200).get("partitions").asInt())
        .isEqualTo(4);
  }

  @Test
  void changingThePartitionsOfAnExistingQueueIs409AndWritesNothing() {
    assertJson(put("p", j("{'partitions':4}")), 201);
    enqueue(s, "implicit", j("{'payload':1}"));
    String before = digest(redis);

    assertError(
        put("p", j("{'partitions':2,'defaults':{'maxAttempts':9}}")), 409, "partitions_fixed");
    assertError(put("implicit", j("{'partitions':2}")), 409, "partitions_fixed");

    assertThat(digest(redis)).isEqualTo(before);
    assertThat(queueView(s, "p").get("defaults").get("maxAttempts").asInt()).isEqualTo(5);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "{'partitions':0}                                   | partitions",
        "{'partitions':'4'}                                 | partitions",
        "{'defaults':5}                                     | defaults",
        "{'defaults':{'maxAttempts':0}}                     | defaults.maxAttempts",
        "{'defaults':{'maxAttempts':1001}}                  | defaults.maxAttempts",
        "{'defaults':{'backoff':{'type':'linear'}}}         | defaults.backoff.type",
        "{'defaults':{'backoff':{'type':'exponential','baseMs':9,'maxMs':1}}} | defaults.backoff.maxMs",
        "{'defaults':{'visibilityMs':0}}                    | defaults.visibilityMs",
        "{'defaults':{'ttlMs':-1}}                          | defaults.ttlMs",
        "{'delivery':{'type':'smtp'}}                       | delivery.type",
        "{'delivery':{'type':'http'}}                       | delivery.url",
        "{'delivery':{'type':'http','url':'not a url'}}     | delivery.url",
        "{'delivery':{'type':'http','url':'ftp://h/x'}}     | delivery.url",
        "{'delivery':{'type':'http','url':'/relative'}}     | delivery.url",
        "{'delivery':{'type':'http','url':'http://h/x','timeoutMs':0}}   | delivery.timeoutMs",
        "{'delivery':{'type':'http','url':'http://h/x','concurrency':0}} | delivery.concurrency",
      })
  void putWithAnInvalidFieldIs400AndWritesNothing(String body, String field) {
    enqueue(s, "q", j("{'payload':1}"));
    JsonNode viewBefore = queueView(s, "q");
    String before = digest(redis);

    assertInvalidField(put("q", j(body)), field);
    assertInvalidField(put("fresh", j(body)), field);

    assertThat(digest(redis)).isEqualTo(before);
    assertThat(queueView(s, "q")).isEqualTo(viewBefore);
    assertError(s.get("/v1/queues/fresh"), 404, "queue_not_found");
  }

  @Test
  void putWithAnInvalidQueueNameIs400() {
    assertError(put("bad!name", "{}"), 400, "invalid_queue_name");
  }

  // ---- delivery (push settings) ----

  @Test
  void putDeliveryHttpIsShownByGet() {
    String delivery =
        j("{'type':'http','url':'http://127.0.0.1:9/hook','timeoutMs':2500,'concurrency':3}");

    JsonNode created = assertJson(put("q", "{\"delivery\":" + delivery + "}"), 201);

    assertThat(created.get("delivery")).isEqualTo(parse(delivery));
    assertThat(queueView(s, "q").get("delivery")).isEqualTo(parse(delivery));
  }

  @Test
  void deliveryHttpTakesDefaultTimeoutAndConcurrency() {
    assertJson(put("q", j("{'delivery':{'type':'http','url':'https://example.invalid/x'}}")), 201);

    JsonNode delivery = queueView(s, "q").get("delivery");
    assertThat(delivery)
        .isEqualTo(
            parse(
                j(
                    "{'type':'http','url':'https://example.invalid/x','timeoutMs':10000,"
                        + "'concurrency':16}")));
  }

  @Test
  void putDeliveryPullTurnsPushOff() {
    assertJson(put("q", j("{'delivery':{'type':'http','url':'http://127.0.0.1:9/hook'}}")), 201);

    JsonNode updated = assertJson(put("q", j("{'delivery':{'type':'pull'}}")), 200);

    assertThat(updated.get("delivery")).isEqualTo(parse(j("{'type':'pull'}")));
    assertThat(queueView(s, "q").get("delivery")).isEqualTo(parse(j("{'type':'pull'}")));
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    assertThat(claimOne(s, "q").get("id").asText()).as("pull consumers get the job").isEqualTo("a");
  }

  @Test
  void putWithoutDeliveryKeepsTheDelivery() {
    String delivery =
        j("{'type':'http','url':'http://127.0.0.1:9/hook','timeoutMs':2500,'concurrency':3}");
    assertJson(put("q", "{\"delivery\":" + delivery + "}"), 201);

    assertJson(put("q", j("{'defaults':{'maxAttempts':2}}")), 200);

    assertThat(queueView(s, "q").get("delivery")).isEqualTo(parse(delivery));
  }
}
