package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.CLOCK_SLACK_MS;
import static dev.hourglass.server.ContractSupport.DELIVERY_FIELDS;
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
import static dev.hourglass.server.ContractSupport.ids;
import static dev.hourglass.server.ContractSupport.j;
import static dev.hourglass.server.ContractSupport.longPollWatchers;
import static dev.hourglass.server.ContractSupport.receiptBody;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hourglass.QueueStats;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** API.md "Consuming (pull)": claim with long poll, ack, nack, extend. */
class ContractConsumeTest extends ContractTestBase {

  private void enqueueReady(String queue, int n) {
    for (int i = 0; i < n; i++) {
      enqueue(s, queue, "{\"id\":\"j" + i + "\",\"payload\":" + i + "}");
    }
  }

  // ---- POST /v1/queues/{queue}/claim ----

  @Test
  void claimAnswersTheDeliveryShape() {
    enqueue(s, "q", j("{'id':'a','payload':{'k': [1, 2]}}"));

    long before = System.currentTimeMillis();
    TestServer.Response r = s.post("/v1/queues/q/claim", "{}");
    long after = System.currentTimeMillis();

    JsonNode body = assertJson(r, 200);
    assertThat(fieldNames(body)).containsExactly("jobs");
    assertThat(body.get("jobs")).hasSize(1);
    JsonNode d = body.get("jobs").get(0);
    assertThat(fieldNames(d)).containsAll(DELIVERY_FIELDS);
    assertThat(d.get("id").asText()).isEqualTo("a");
    assertThat(r.body()).contains("\"payload\":{\"k\": [1, 2]}");
    assertThat(d.get("attempt").isIntegralNumber()).isTrue();
    assertThat(d.get("attempt").asInt()).isEqualTo(1);
    assertThat(d.get("receipt").isTextual()).isTrue();
    assertThat(d.get("receipt").asText()).isNotBlank();
    assertThat(d.get("leaseUntil").isIntegralNumber()).isTrue();
    assertThat(d.get("leaseUntil").asLong())
        .isBetween(before + 30_000 - CLOCK_SLACK_MS, after + 30_000 + CLOCK_SLACK_MS);

    JsonNode job = getJob(s, "q", "a");
    assertThat(job.get("state").asText()).isEqualTo("inflight");
    assertThat(job.get("attempts").asInt())
        .as("GET counts the deliveries made, the running one included: the claim's attempt")
        .isEqualTo(d.get("attempt").asInt())
        .isEqualTo(1);
    QueueStats stats = stats("q");
    assertThat(stats.inflight()).isEqualTo(1);
    assertThat(stats.ready()).isZero();
  }

  @Test
  void claimWithoutMaxLeasesOneJob() {
    enqueueReady("q", 3);

    assertThat(claim(s, "q", "{}")).hasSize(1);
    assertThat(claim(s, "q", null)).as("no body at all").hasSize(1);
    assertThat(stats("q").inflight()).isEqualTo(2);
  }

  @Test
  void claimLeasesUpToMax() {
    enqueueReady("q", 10);

    assertThat(claim(s, "q", j("{'max':4}"))).hasSize(4);
    JsonNode rest = claim(s, "q", j("{'max':100,'waitMs':30000}"));
    assertThat(rest).as("answers at once when jobs are ready, whatever waitMs").hasSize(6);
    assertThat(claim(s, "q", j("{'max':100}"))).isEmpty();
    assertThat(stats("q").inflight()).isEqualTo(10);
  }

  @Test
  void claimVisibilityMsSetsLeaseUntil() {
    enqueue(s, "q", j("{'id':'a','payload':1,'visibilityMs':600000}"));

    long before = System.currentTimeMillis();
    JsonNode d = claim(s, "q", j("{'visibilityMs':5000}")).get(0);
    long after = System.currentTimeMillis();

    assertThat(d.get("leaseUntil").asLong())
        .as("the claim's visibilityMs overrides the job's")
        .isBetween(before + 5_000 - CLOCK_SLACK_MS, after + 5_000 + CLOCK_SLACK_MS);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "{'max':0}             | max",
        "{'max':101}           | max",
        "{'max':-1}            | max",
        "{'max':'5'}           | max",
        "{'max':2.5}           | max",
        "{'waitMs':-1}         | waitMs",
        "{'waitMs':30001}      | waitMs",
        "{'waitMs':'1s'}       | waitMs",
        "{'visibilityMs':0}    | visibilityMs",
        "{'visibilityMs':true} | visibilityMs",
      })
  void claimOutsideTheLimitsIs400AndWritesNothing(String body, String field) {
    enqueueReady("q", 1);
    String before = digest(redis);

    assertInvalidField(s.post("/v1/queues/q/claim", j(body)), field);
    assertInvalidField(s.post("/v1/queues/fresh/claim", j(body)), field);

    assertThat(digest(redis)).isEqualTo(before);
    assertThat(stats("q").ready()).isEqualTo(1);
  }

  @Test
  void malformedClaimIs400InvalidJson() {
    assertError(s.post("/v1/queues/q/claim", "{\"max\":"), 400, "invalid_json");
    assertError(s.post("/v1/queues/q/claim", "[]"), 400, "invalid_json");
  }

  /**
   * A claim that waits is woken by what happens meanwhile, not by the end of its wait: a wait that
   * runs out answers an empty list ({@link #longPollAnswersAnEmptyListAfterWaitMs}), so an answer
   * with the job shows that the enqueue ended it. How soon it answers is the benchmarks' business.
   */
  @Test
  void longPollAnswersWhenAJobIsEnqueuedDuringTheWait() {
    CompletableFuture<TestServer.Response> claimed = claimThatWaits(j("{'max':5,'waitMs':30000}"));

    enqueue(s, "q", j("{'id':'late','payload':1}"));

    JsonNode jobs = assertJson(claimed.join(), 200).get("jobs");
    assertThat(ids(jobs)).containsExactly("late");
  }

  /** Likewise for a job that becomes due during the wait (it is enqueued once the claim waits). */
  @Test
  void longPollAnswersWhenADelayedJobBecomesDue() {
    CompletableFuture<TestServer.Response> claimed = claimThatWaits(j("{'waitMs':30000}"));

    long runAt =
        enqueue(s, "q", j("{'id':'soon','payload':1,'delayMs':500}")).get("runAt").asLong();

    JsonNode jobs = assertJson(claimed.join(), 200).get("jobs");
    long answeredAt = System.currentTimeMillis();
    assertThat(ids(jobs)).containsExactly("soon");
    // A lower bound: the claim waited for the job to be due. Redis and this JVM read one clock.
    assertThat(answeredAt).isGreaterThanOrEqualTo(runAt - CLOCK_SLACK_MS);
  }

  @Test
  void longPollAnswersAnEmptyListAfterWaitMs() {
    long started = System.nanoTime();

    JsonNode jobs = claim(s, "q", j("{'max':10,'waitMs':700}"));

    Duration took = Duration.ofNanos(System.nanoTime() - started);
    assertThat(jobs).isEmpty();
    assertThat(took)
        .as("a lower bound: the claim waited")
        .isGreaterThanOrEqualTo(Duration.ofMillis(650));
  }

  /** With {@code waitMs} 0 the claim never parks on the queue's wake list. */
  @Test
  void claimWithWaitMsZeroAnswersWithoutWaiting() {
    Set<String> watchers = longPollWatchers(redis);

    assertThat(claim(s, "q", j("{'waitMs':0}"))).isEmpty();

    assertThat(newLongPollWatchers(watchers)).as("long-poll watchers that blocked").isEmpty();
  }

  /**
   * Sends a claim that finds nothing to claim and returns once it waits (a long-poll watcher has
   * blocked on the queue's wake list), so that what the test does next happens during the wait.
   */
  private CompletableFuture<TestServer.Response> claimThatWaits(String body) {
    Set<String> watchers = longPollWatchers(redis);
    CompletableFuture<TestServer.Response> claimed =
        CompletableFuture.supplyAsync(() -> s.post("/v1/queues/q/claim", body));
    await("the claim waits on the queue's wake list")
        .atMost(Duration.ofSeconds(25))
        .pollInterval(Duration.ofMillis(10))
        .until(() -> !newLongPollWatchers(watchers).isEmpty() || claimed.isDone());
    assertThat(claimed).as("the claim answered before it began to wait").isNotDone();
    return claimed;
  }

  private Set<String> newLongPollWatchers(Set<String> before) {
    Set<String> added = new HashSet<>(longPollWatchers(redis));
    added.removeAll(before);
    return added;
  }

  // ---- ack ----

  @Test
  void ackDeletesTheJob() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    JsonNode d = claimOne(s, "q");

    assertNoContent(s.post("/v1/queues/q/jobs/a/ack", receiptBody(d)));

    assertError(s.get("/v1/queues/q/jobs/a"), 404, "job_not_found");
    QueueStats stats = stats("q");
    assertThat(stats.total()).isZero();
    assertThat(stats.counters().acked()).isEqualTo(1);
  }

  @Test
  void ackOfAnUnknownJobIs404() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    JsonNode d = claimOne(s, "q");
    assertNoContent(s.post("/v1/queues/q/jobs/a/ack", receiptBody(d)));

    assertError(s.post("/v1/queues/q/jobs/a/ack", receiptBody(d)), 404, "job_not_found");
    assertError(s.post("/v1/queues/q/jobs/nope/ack", receiptBody(d)), 404, "job_not_found");
    assertError(s.post("/v1/queues/unknown/jobs/a/ack", receiptBody(d)), 404, "queue_not_found");
  }

  @Test
  void ackWithAWrongReceiptIs409StaleReceipt() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    claimOne(s, "q");
    String before = digest(redis);

    assertError(
        s.post("/v1/queues/q/jobs/a/ack", j("{'receipt':'not-the-receipt'}")),
        409,
        "stale_receipt");

    assertThat(digest(redis)).isEqualTo(before);
    assertThat(getJob(s, "q", "a").get("state").asText()).isEqualTo("inflight");
  }

  @Test
  void ackOfAReadyJobIs409StaleReceipt() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));

    assertError(
        s.post("/v1/queues/q/jobs/a/ack", j("{'receipt':'whatever'}")), 409, "stale_receipt");
  }

  @Test
  void ackWithTheReceiptOfAnExpiredLeaseIs409StaleReceipt() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    JsonNode first = claim(s, "q", j("{'visibilityMs':200}")).get(0);

    JsonNode second =
        await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> claim(s, "q", j("{'waitMs':1000}")), jobs -> !jobs.isEmpty())
            .get(0);

    assertThat(second.get("attempt").asInt()).isEqualTo(2);
    assertError(s.post("/v1/queues/q/jobs/a/ack", receiptBody(first)), 409, "stale_receipt");
    assertNoContent(s.post("/v1/queues/q/jobs/a/ack", receiptBody(second)));
  }

  @Test
  void ackWithoutReceiptIs400() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    claimOne(s, "q");

    assertInvalidField(s.post("/v1/queues/q/jobs/a/ack", "{}"), "receipt");
    assertInvalidField(s.post("/v1/queues/q/jobs/a/ack", j("{'receipt':5}")), "receipt");
  }

  // ---- nack ----

  @Test
  void nackRetriesByTheJobsBackoff() {
    enqueue(s, "q", j("{'id':'a','payload':1,'backoff':{'type':'fixed','delayMs':60000}}"));
    JsonNode d = claimOne(s, "q");

    long before = System.currentTimeMillis();
    assertNoContent(
        s.post(
            "/v1/queues/q/jobs/a/nack",
            "{\"receipt\":\"" + d.get("receipt").asText() + "\",\"error\":\"boom\"}"));
    long after = System.currentTimeMillis();

    JsonNode job = getJob(s, "q", "a");
    assertThat(job.get("state").asText()).isEqualTo("delayed");
    assertThat(job.get("attempts").asInt()).isEqualTo(1);
    assertThat(job.get("lastError").asText()).isEqualTo("boom");
    assertThat(job.get("runAt").asLong())
        .isBetween(before + 60_000 - CLOCK_SLACK_MS, after + 60_000 + CLOCK_SLACK_MS);
    assertThat(stats("q").counters().retried()).isEqualTo(1);
  }

  @Test
  void nackFollowsAScheduleBackoffStepByStep() {
    enqueue(s, "q", j("{'id':'a','payload':1,'backoff':{'type':'schedule','delaysMs':[0,90000]}}"));
    assertNoContent(s.post("/v1/queues/q/jobs/a/nack", receiptBody(claimOne(s, "q"))));
    assertThat(getJob(s, "q", "a").get("state").asText())
        .as("first step of the schedule is 0 ms")
        .isEqualTo("ready");

    JsonNode second = claimOne(s, "q");
    assertThat(second.get("attempt").asInt()).isEqualTo(2);
    long before = System.currentTimeMillis();
    assertNoContent(s.post("/v1/queues/q/jobs/a/nack", receiptBody(second)));
    long after = System.currentTimeMillis();

    assertThat(getJob(s, "q", "a").get("runAt").asLong())
        .isBetween(before + 90_000 - CLOCK_SLACK_MS, after + 90_000 + CLOCK_SLACK_MS);
  }

  @Test
  void nackWithDelayMsRetriesAfterThatDelay() {
    enqueue(s, "q", j("{'id':'a','payload':1,'backoff':{'type':'fixed','delayMs':600000}}"));
    JsonNode d = claimOne(s, "q");

    long before = System.currentTimeMillis();
    assertNoContent(
        s.post(
            "/v1/queues/q/jobs/a/nack",
            "{\"receipt\":\"" + d.get("receipt").asText() + "\",\"delayMs\":5000}"));
    long after = System.currentTimeMillis();

    JsonNode job = getJob(s, "q", "a");
    assertThat(job.get("state").asText()).isEqualTo("delayed");
    assertThat(job.get("runAt").asLong())
        .isBetween(before + 5_000 - CLOCK_SLACK_MS, after + 5_000 + CLOCK_SLACK_MS);
  }

  @Test
  void nackWithDelayMsZeroRedeliversWithTheNextAttempt() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    JsonNode d = claimOne(s, "q");
    assertNoContent(
        s.post(
            "/v1/queues/q/jobs/a/nack",
            "{\"receipt\":\"" + d.get("receipt").asText() + "\",\"delayMs\":0,\"error\":\"e1\"}"));

    JsonNode again = claimOne(s, "q");

    assertThat(again.get("id").asText()).isEqualTo("a");
    assertThat(again.get("attempt").asInt()).isEqualTo(2);
    assertThat(again.get("receipt").asText()).isNotEqualTo(d.get("receipt").asText());
  }

  @Test
  void nackWithDeadTrueMovesTheJobToDead() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    JsonNode d = claimOne(s, "q");

    assertNoContent(
        s.post(
            "/v1/queues/q/jobs/a/nack",
            "{\"receipt\":\""
                + d.get("receipt").asText()
                + "\",\"error\":\"poison\",\"dead\":true}"));

    JsonNode job = getJob(s, "q", "a");
    assertThat(job.get("state").asText()).isEqualTo("dead");
    assertThat(job.get("lastError").asText()).isEqualTo("poison");
    JsonNode dead = assertJson(s.get("/v1/queues/q/dead"), 200).get("jobs");
    assertThat(ids(dead)).containsExactly("a");
    QueueStats stats = stats("q");
    assertThat(stats.dead()).isEqualTo(1);
    assertThat(stats.counters().dead()).isEqualTo(1);
  }

  @Test
  void nackWhenAttemptsAreSpentMovesTheJobToDead() {
    enqueue(s, "q", j("{'id':'a','payload':1,'maxAttempts':2}"));
    JsonNode first = claimOne(s, "q");
    assertNoContent(
        s.post(
            "/v1/queues/q/jobs/a/nack",
            "{\"receipt\":\"" + first.get("receipt").asText() + "\",\"delayMs\":0}"));
    assertThat(getJob(s, "q", "a").get("state").asText()).isEqualTo("ready");

    JsonNode second = claimOne(s, "q");
    assertNoContent(
        s.post(
            "/v1/queues/q/jobs/a/nack",
            "{\"receipt\":\"" + second.get("receipt").asText() + "\",\"error\":\"last\"}"));

    JsonNode job = getJob(s, "q", "a");
    assertThat(job.get("state").asText()).isEqualTo("dead");
    assertThat(job.get("attempts").asInt()).isEqualTo(2);
    assertThat(job.get("lastError").asText()).isEqualTo("last");
  }

  @Test
  void nackWithAStaleReceiptIs409AndOfAnUnknownJob404() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    JsonNode d = claimOne(s, "q");
    String before = digest(redis);

    assertError(s.post("/v1/queues/q/jobs/a/nack", j("{'receipt':'stale'}")), 409, "stale_receipt");
    assertThat(digest(redis)).isEqualTo(before);

    assertError(s.post("/v1/queues/q/jobs/nope/nack", receiptBody(d)), 404, "job_not_found");
    assertError(s.post("/v1/queues/unknown/jobs/a/nack", receiptBody(d)), 404, "queue_not_found");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "{}                                | receipt",
        "{'receipt':'R','delayMs':-1}      | delayMs",
        "{'receipt':'R','delayMs':'5'}     | delayMs",
        "{'receipt':'R','dead':'yes'}      | dead",
        "{'receipt':'R','error':42}        | error",
      })
  void nackWithAnInvalidFieldIs400AndWritesNothing(String body, String field) {
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    String receipt = claimOne(s, "q").get("receipt").asText();
    String before = digest(redis);

    assertInvalidField(s.post("/v1/queues/q/jobs/a/nack", j(body).replace("R", receipt)), field);

    assertThat(digest(redis)).isEqualTo(before);
  }

  // ---- extend ----

  @Test
  void extendAnswersTheLaterLeaseUntil() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    JsonNode d = claim(s, "q", j("{'visibilityMs':1000}")).get(0);
    long firstLease = d.get("leaseUntil").asLong();

    long before = System.currentTimeMillis();
    JsonNode answer =
        assertJson(
            s.post(
                "/v1/queues/q/jobs/a/extend",
                "{\"receipt\":\"" + d.get("receipt").asText() + "\",\"visibilityMs\":60000}"),
            200);
    long after = System.currentTimeMillis();

    assertThat(fieldNames(answer)).containsExactly("leaseUntil");
    long lease = answer.get("leaseUntil").asLong();
    assertThat(lease).isGreaterThan(firstLease);
    assertThat(lease).isBetween(before + 60_000 - CLOCK_SLACK_MS, after + 60_000 + CLOCK_SLACK_MS);
    assertThat(getJob(s, "q", "a").get("state").asText()).isEqualTo("inflight");
    assertNoContent(s.post("/v1/queues/q/jobs/a/ack", receiptBody(d)));
  }

  @Test
  void extendWithAStaleReceiptIs409AndOfAnUnknownJob404() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    JsonNode d = claimOne(s, "q");

    assertError(
        s.post("/v1/queues/q/jobs/a/extend", j("{'receipt':'stale','visibilityMs':1000}")),
        409,
        "stale_receipt");
    assertError(s.post("/v1/queues/q/jobs/nope/extend", receiptBody(d)), 404, "job_not_found");
    assertError(s.post("/v1/queues/unknown/jobs/a/extend", receiptBody(d)), 404, "queue_not_found");
    assertInvalidField(
        s.post(
            "/v1/queues/q/jobs/a/extend",
            "{\"receipt\":\"" + d.get("receipt").asText() + "\",\"visibilityMs\":0}"),
        "visibilityMs");
  }
}
