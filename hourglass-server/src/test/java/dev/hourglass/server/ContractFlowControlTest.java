package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.assertError;
import static dev.hourglass.server.ContractSupport.assertInvalidField;
import static dev.hourglass.server.ContractSupport.assertJson;
import static dev.hourglass.server.ContractSupport.assertNoContent;
import static dev.hourglass.server.ContractSupport.claim;
import static dev.hourglass.server.ContractSupport.digest;
import static dev.hourglass.server.ContractSupport.enqueue;
import static dev.hourglass.server.ContractSupport.j;
import static dev.hourglass.server.ContractSupport.longPollWatchers;
import static dev.hourglass.server.ContractSupport.receiptBody;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** API.md 1.2 "Flow control": a queue's limits over HTTP. */
class ContractFlowControlTest extends ContractTestBase {

  private JsonNode put(String body, int status) {
    return assertJson(s.call("PUT", "/v1/queues/q", j(body)), status);
  }

  @Test
  void putSetsTheLimitsAndGetReturnsThem() {
    JsonNode created = put("{'limits':{'rate':{'max':100,'periodMs':1000},'concurrency':10}}", 201);

    JsonNode want =
        ContractSupport.parse(j("{'rate':{'max':100,'periodMs':1000},'concurrency':10}"));
    assertThat(created.get("limits")).isEqualTo(want);
    JsonNode got = assertJson(s.get("/v1/queues/q"), 200);
    assertThat(got.get("limits")).isEqualTo(want);
    assertThat(got.get("heldBack").asLong()).isZero();
  }

  @Test
  void eitherPartIsOptionalAnAbsentFieldKeepsTheLimitsAndNullRemovesThem() {
    JsonNode rateOnly = put("{'limits':{'rate':{'max':5,'periodMs':60000}}}", 201);
    assertThat(rateOnly.get("limits").get("rate").get("max").asInt()).isEqualTo(5);
    assertThat(rateOnly.get("limits").get("concurrency").isNull()).isTrue();

    JsonNode kept = put("{'defaults':{'maxAttempts':3}}", 200);
    assertThat(kept.get("limits").get("rate").get("periodMs").asLong()).isEqualTo(60000);

    JsonNode concurrencyOnly = put("{'limits':{'concurrency':2}}", 200);
    assertThat(concurrencyOnly.get("limits").get("rate").isNull()).isTrue();
    assertThat(concurrencyOnly.get("limits").get("concurrency").asInt()).isEqualTo(2);

    JsonNode removed = put("{'limits':null}", 200);
    assertThat(removed.get("limits").isNull()).isTrue();
    assertThat(stats("q").heldBack()).isZero();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{'limits':{'rate':{'max':0,'periodMs':1000}}}|limits.rate.max",
        "{'limits':{'rate':{'max':1000001,'periodMs':1000}}}|limits.rate.max",
        "{'limits':{'rate':{'max':1.5,'periodMs':1000}}}|limits.rate.max",
        "{'limits':{'rate':{'periodMs':1000}}}|limits.rate.max",
        "{'limits':{'rate':{'max':1}}}|limits.rate.periodMs",
        "{'limits':{'rate':{'max':1,'periodMs':0}}}|limits.rate.periodMs",
        "{'limits':{'rate':{'max':1,'periodMs':86400001}}}|limits.rate.periodMs",
        "{'limits':{'rate':5}}|limits.rate",
        "{'limits':{'concurrency':0}}|limits.concurrency",
        "{'limits':{'concurrency':100001}}|limits.concurrency",
        "{'limits':{'concurrency':'2'}}|limits.concurrency",
        "{'limits':7}|limits",
      })
  void outOfRangeLimitsAreRefusedNamingTheFieldAndWriteNothing(String body, String field) {
    put("{'limits':{'concurrency':3}}", 201);
    String before = digest(redis);

    assertInvalidField(s.call("PUT", "/v1/queues/q", j(body)), field);

    assertThat(digest(redis)).isEqualTo(before);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{'limits':{'concurrency':1,'rate_max':3}}|limits.rate_max",
        "{'limits':{'rate':{'max':1,'periodMs':10,'burst':2}}}|limits.rate.burst",
      })
  void unknownFieldsAreRefused(String body, String field) {
    String message = assertError(s.call("PUT", "/v1/queues/q", j(body)), 400, "invalid_field");
    assertThat(message).contains(field);
  }

  @Test
  void aClaimLeasesNoMoreThanTheConcurrencyAndHeldBackCountsTheRest() {
    put("{'limits':{'concurrency':2}}", 201);
    for (int i = 0; i < 5; i++) {
      enqueue(s, "q", "{\"id\":\"j" + i + "\",\"payload\":" + i + "}");
    }

    assertThat(claim(s, "q", j("{'max':10,'waitMs':0}"))).hasSize(2);
    assertThat(claim(s, "q", j("{'max':10,'waitMs':0}"))).isEmpty();

    JsonNode queue = assertJson(s.get("/v1/queues/q"), 200);
    assertThat(queue.get("ready").asLong()).isEqualTo(3);
    assertThat(queue.get("heldBack").asLong()).isEqualTo(3);
  }

  /**
   * A long poll held back by the concurrency sleeps (its watcher blocks on the wake list) and
   * returns a job once the lease ends, having sent only a few script calls meanwhile.
   */
  @Test
  void aHeldBackLongPollReturnsAJobAfterAnAckWithoutPolling() throws Exception {
    put("{'limits':{'concurrency':1}}", 201);
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    enqueue(s, "q", j("{'id':'b','payload':2}"));
    JsonNode first = claim(s, "q", j("{'max':1,'waitMs':0}")).get(0);

    Set<String> watchers = longPollWatchers(redis);
    long before = scriptCalls();
    CompletableFuture<TestServer.Response> poll =
        CompletableFuture.supplyAsync(
            () -> s.post("/v1/queues/q/claim", j("{'max':1,'waitMs':30000}")));
    await("the claim waits on the queue's wake list")
        .atMost(Duration.ofSeconds(25))
        .until(() -> !added(watchers).isEmpty() || poll.isDone());
    assertThat(poll).isNotDone();
    long waitedUntil = redisNowMs() + 500; // a polling claim would send many claims meanwhile
    await().atMost(Duration.ofSeconds(25)).until(() -> redisNowMs() > waitedUntil);
    assertThat(poll).isNotDone();

    String firstId = first.get("id").asText();
    assertNoContent(s.post("/v1/queues/q/jobs/" + firstId + "/ack", receiptBody(first)));

    JsonNode jobs = assertJson(poll.get(25, TimeUnit.SECONDS), 200).get("jobs");
    assertThat(jobs).hasSize(1);
    assertThat(jobs.get(0).get("id").asText()).isNotEqualTo(firstId);
    assertThat(scriptCalls() - before).as("script calls while held back").isLessThan(12);
  }

  private Set<String> added(Set<String> before) {
    Set<String> now = new HashSet<>(longPollWatchers(redis));
    now.removeAll(before);
    return now;
  }

  private long scriptCalls() {
    for (String line : redis.server().command("INFO", "commandstats").split("\r?\n")) {
      if (line.startsWith("cmdstat_evalsha:")) {
        String rest = line.substring(line.indexOf("calls=") + 6);
        return Long.parseLong(rest.substring(0, rest.indexOf(',')));
      }
    }
    return 0;
  }

  private long redisNowMs() {
    String[] t = redis.server().command("TIME").split("\n");
    return Long.parseLong(t[0]) * 1000 + Long.parseLong(t[1]) / 1000;
  }
}
