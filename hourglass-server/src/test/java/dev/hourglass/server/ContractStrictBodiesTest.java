package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.assertError;
import static dev.hourglass.server.ContractSupport.assertErrorEntry;
import static dev.hourglass.server.ContractSupport.assertInvalidField;
import static dev.hourglass.server.ContractSupport.claimOne;
import static dev.hourglass.server.ContractSupport.enqueue;
import static dev.hourglass.server.ContractSupport.j;
import static dev.hourglass.server.ContractSupport.parse;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * API.md 1.1 "Strict bodies": a field the contract does not define is refused with 400 {@code
 * invalid_field} naming it (and the closest known name), and nothing is written; queue names {@code
 * .} and {@code ..} are refused; a ttl shorter than the wait before the job runs is refused.
 */
class ContractStrictBodiesTest extends ContractTestBase {

  /** Refused with this message, and Redis holds exactly what it held before. */
  private void refused(String method, String path, String body, String message) {
    RedisState before = RedisState.read(redis.server());
    TestServer.Response r = s.call(method, path, body);
    assertThat(assertError(r, 400, "invalid_field")).isEqualTo(message);
    assertThat(RedisState.read(redis.server()).changesSince(before))
        .as("nothing written")
        .isEmpty();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{'payload':1,'delay':60000}|unknown field \"delay\"; did you mean \"delayMs\"?",
        "{'payload':1,'delay_ms':60000}|unknown field \"delay_ms\"; did you mean \"delayMs\"?",
        "{'payload':1,'max_attempts':3}|unknown field \"max_attempts\"; did you mean \"maxAttempts\"?",
        "{'payload':1,'ttl':5}|unknown field \"ttl\"; did you mean \"ttlMs\"?",
        "{'payload':1,'colour':'red'}|unknown field \"colour\"; known fields: [id, payload, delayMs,"
            + " runAt, maxAttempts, backoff, visibilityMs, ttlMs, priority]",
        "{'payload':1,'backoff':{'type':'fixed','delayMs':5,'jitter':0.1}}|unknown field"
            + " \"backoff.jitter\"; known fields: [type, delayMs]",
      })
  void anEnqueueWithAnUnknownFieldIsRefusedAndRunsNothing(String body, String message) {
    refused("POST", "/v1/queues/q/jobs", j(body), message);
  }

  @Test
  void aBatchRefusesAnUnknownTopLevelFieldWholeAndAnUnknownJobFieldForThatJobAlone() {
    refused(
        "POST",
        "/v1/queues/q/jobs/batch",
        j("{'job':[{'payload':1}]}"),
        "unknown field \"job\"; did you mean \"jobs\"?");

    TestServer.Response r =
        s.post("/v1/queues/q/jobs/batch", j("{'jobs':[{'payload':1},{'payload':2,'delay':5}]}"));
    assertThat(r.status()).isEqualTo(200);
    JsonNode results = parse(r.body()).get("results");
    assertThat(results.get(0).has("id")).isTrue();
    assertThat(assertErrorEntry(results.get(1), "invalid_field"))
        .isEqualTo("unknown field \"jobs[1].delay\"; did you mean \"delayMs\"?");
    assertThat(stats("q").total()).isEqualTo(1);
  }

  @Test
  void queueSettingsRefuseUnknownFieldsAtEveryLevel() {
    refused(
        "PUT",
        "/v1/queues/q",
        j("{'bogus':1}"),
        "unknown field \"bogus\"; known fields: [partitions, defaults, delivery, replicaAcks, compressAbove, limits]");
    refused(
        "PUT",
        "/v1/queues/q",
        j("{'defaults':{'maxAttempt':3}}"),
        "unknown field \"defaults.maxAttempt\"; did you mean \"maxAttempts\"?");
    refused(
        "PUT",
        "/v1/queues/q",
        j("{'delivery':{'type':'http','url':'http://localhost:1/x','timeout':5}}"),
        "unknown field \"delivery.timeout\"; did you mean \"timeoutMs\"?");
    refused(
        "PUT",
        "/v1/queues/q",
        j("{'delivery':{'type':'pull','url':'http://localhost:1/x'}}"),
        "unknown field \"delivery.url\"; known fields: [type]");
    assertThat(s.server().hourglass().queueExists("q")).isFalse();
  }

  @Test
  void consumerCallsRefuseUnknownFields() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    JsonNode d = claimOne(s, "q");
    String receipt = d.get("receipt").asText();
    refused(
        "POST",
        "/v1/queues/q/claim",
        j("{'max':1,'wait':100}"),
        "unknown field \"wait\"; did you mean \"waitMs\"?");
    refused(
        "POST",
        "/v1/queues/q/jobs/a/ack",
        j("{'receipt':'" + receipt + "','force':true}"),
        "unknown field \"force\"; known fields: [receipt]");
    refused(
        "POST",
        "/v1/queues/q/jobs/a/nack",
        j("{'receipt':'" + receipt + "','kill':true}"),
        "unknown field \"kill\"; known fields: [receipt, error, delayMs, dead]");
    refused(
        "POST",
        "/v1/queues/q/jobs/a/extend",
        j("{'receipt':'" + receipt + "','visibility':1000}"),
        "unknown field \"visibility\"; did you mean \"visibilityMs\"?");
    s.server().hourglass().queue("q").ack("a", receipt);
    enqueue(s, "q", j("{'id':'b','payload':1,'delayMs':60000}"));
    refused(
        "PUT",
        "/v1/queues/q/jobs/b/schedule",
        j("{'delay':5}"),
        "unknown field \"delay\"; did you mean \"delayMs\"?");
  }

  @ParameterizedTest
  @ValueSource(strings = {".", ".."})
  void dotAndDotDotAreNotQueueNames(String name) {
    RedisState before = RedisState.read(redis.server());
    assertError(
        s.post("/v1/queues/" + name + "/jobs", j("{'payload':1}")), 400, "invalid_queue_name");
    assertError(s.call("PUT", "/v1/queues/" + name, "{}"), 400, "invalid_queue_name");
    assertThat(RedisState.read(redis.server()).changesSince(before)).isEmpty();
  }

  @Test
  void aTtlShorterThanTheWaitBeforeTheJobRunsIsRefused() {
    RedisState before = RedisState.read(redis.server());
    assertInvalidField(
        s.post("/v1/queues/q/jobs", j("{'payload':1,'delayMs':60000,'ttlMs':1000}")), "ttlMs");
    long runAt = System.currentTimeMillis() + 3_600_000;
    assertInvalidField(
        s.post("/v1/queues/q/jobs", "{\"payload\":1,\"runAt\":" + runAt + ",\"ttlMs\":60000}"),
        "ttlMs");
    assertThat(RedisState.read(redis.server()).changesSince(before)).isEmpty();
    assertThat(
            enqueue(s, "q", j("{'payload':1,'delayMs':1000,'ttlMs':60000}")).get("state").asText())
        .isEqualTo("delayed");
  }
}
