package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.JOB_FIELDS;
import static dev.hourglass.server.ContractSupport.assertError;
import static dev.hourglass.server.ContractSupport.assertInvalidField;
import static dev.hourglass.server.ContractSupport.assertJson;
import static dev.hourglass.server.ContractSupport.assertNoContent;
import static dev.hourglass.server.ContractSupport.claim;
import static dev.hourglass.server.ContractSupport.digest;
import static dev.hourglass.server.ContractSupport.enqueue;
import static dev.hourglass.server.ContractSupport.fieldNames;
import static dev.hourglass.server.ContractSupport.ids;
import static dev.hourglass.server.ContractSupport.j;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** API.md 1.1 "Jobs by state" and "Queue lifecycle", and GET /v1/queues/{queue}/due. */
class ContractLifecycleTest extends ContractTestBase {

  private List<String> listAll(String queue, String state, int limit) {
    List<String> seen = new ArrayList<>();
    String cursor = null;
    do {
      String path =
          "/v1/queues/"
              + queue
              + "/jobs?state="
              + state
              + "&limit="
              + limit
              + (cursor == null
                  ? ""
                  : "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8));
      JsonNode page = assertJson(s.get(path), 200);
      assertThat(fieldNames(page)).containsExactlyInAnyOrder("jobs", "next");
      assertThat(page.get("jobs").size()).isLessThanOrEqualTo(limit);
      for (JsonNode job : page.get("jobs")) {
        assertThat(fieldNames(job)).containsAll(JOB_FIELDS);
        assertThat(job.get("state").asText()).isEqualTo(state);
      }
      seen.addAll(ids(page.get("jobs")));
      cursor = page.get("next").isNull() ? null : page.get("next").asText();
    } while (cursor != null);
    return seen;
  }

  @Test
  void jobsAreListedByStateInDueOrderAcrossPages() {
    assertJson(s.call("PUT", "/v1/queues/q", j("{'partitions':3}")), 201);
    for (int i = 9; i >= 0; i--) {
      enqueue(
          s,
          "q",
          "{\"id\":\"late"
              + i
              + "\",\"payload\":"
              + i
              + ",\"delayMs\":"
              + (600_000 + i * 1000)
              + "}");
    }
    for (int i = 0; i < 4; i++) {
      enqueue(
          s, "q", "{\"id\":\"now" + i + "\",\"payload\":" + i + ",\"runAt\":" + (1000 + i) + "}");
    }
    assertThat(claim(s, "q", "{\"max\":1}")).hasSize(1);

    assertThat(listAll("q", "delayed", 3))
        .containsExactly(
            "late0", "late1", "late2", "late3", "late4", "late5", "late6", "late7", "late8",
            "late9");
    List<String> ready = listAll("q", "ready", 2);
    List<String> inflight = listAll("q", "inflight", 2);
    assertThat(ready).hasSize(3).isSorted();
    assertThat(inflight).hasSize(1);
    assertThat(listAll("q", "dead", 5)).isEmpty();
    List<String> all = new ArrayList<>(ready);
    all.addAll(inflight);
    assertThat(all).containsExactlyInAnyOrder("now0", "now1", "now2", "now3");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/v1/queues/q/jobs",
        "/v1/queues/q/jobs?state=waiting",
        "/v1/queues/q/jobs?state=READY",
        "/v1/queues/q/jobs?state=ready&limit=0",
        "/v1/queues/q/jobs?state=ready&limit=1001",
        "/v1/queues/q/jobs?state=ready&cursor=nope",
      })
  void badListingsAreRefused(String path) {
    enqueue(s, "q", j("{'payload':1}"));
    assertError(s.get(path), 400, "invalid_field");
  }

  @Test
  void aCursorOfAnotherStateIsRefusedAndUnknownQueuesAre404() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    enqueue(s, "q", j("{'id':'b','payload':1}"));
    String next =
        assertJson(s.get("/v1/queues/q/jobs?state=ready&limit=1"), 200).get("next").asText();
    assertInvalidField(
        s.get(
            "/v1/queues/q/jobs?state=dead&cursor="
                + URLEncoder.encode(next, StandardCharsets.UTF_8)),
        "cursor");
    assertError(s.get("/v1/queues/nope/jobs?state=ready"), 404, "queue_not_found");
    assertError(s.get("/v1/queues/nope/due"), 404, "queue_not_found");
  }

  @Test
  void dueCountsDelayedJobsByHorizon() {
    enqueue(s, "q", j("{'payload':1}"));
    enqueue(s, "q", j("{'payload':1,'delayMs':20000}"));
    enqueue(s, "q", j("{'payload':1,'delayMs':1200000}"));
    enqueue(s, "q", j("{'payload':1,'delayMs':7200000}"));
    enqueue(s, "q", j("{'payload':1,'delayMs':172800000}"));
    enqueue(s, "q", j("{'payload':1,'delayMs':172900000}"));

    JsonNode due = assertJson(s.get("/v1/queues/q/due"), 200);

    assertThat(fieldNames(due)).containsExactlyInAnyOrder("minute", "hour", "day", "later");
    assertThat(due.get("minute").asLong()).isEqualTo(1);
    assertThat(due.get("hour").asLong()).isEqualTo(1);
    assertThat(due.get("day").asLong()).isEqualTo(1);
    assertThat(due.get("later").asLong()).isEqualTo(2);
  }

  @Test
  void aPausedQueueTakesEnqueuesButClaimsGetNothingUntilResumed() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));

    JsonNode paused = assertJson(s.post("/v1/queues/q/pause", ""), 200);

    assertThat(paused.get("paused").asBoolean()).isTrue();
    assertThat(paused.get("name").asText()).isEqualTo("q");
    assertThat(paused.has("defaults")).isTrue();
    enqueue(s, "q", j("{'id':'b','payload':1}"));
    assertThat(claim(s, "q", "{\"max\":10}")).isEmpty();
    assertThat(assertJson(s.get("/v1/queues"), 200).get("queues").get(0).get("paused").asBoolean())
        .isTrue();
    assertThat(assertJson(s.get("/v1/queues/q"), 200).get("ready").asLong()).isEqualTo(2);

    JsonNode resumed = assertJson(s.post("/v1/queues/q/resume", "{}"), 200);

    assertThat(resumed.get("paused").asBoolean()).isFalse();
    assertThat(ids(claim(s, "q", "{\"max\":10}"))).containsExactly("a", "b");
  }

  @Test
  void pauseTakesNoFieldsAndAnUnknownQueueIs404() {
    enqueue(s, "q", j("{'payload':1}"));
    String before = digest(redis);
    assertThat(
            assertError(s.post("/v1/queues/q/pause", j("{'paused':true}")), 400, "invalid_field"))
        .isEqualTo("unknown field \"paused\"; this request takes no fields");
    assertError(s.post("/v1/queues/nope/pause", ""), 404, "queue_not_found");
    assertError(s.call("DELETE", "/v1/queues/nope", null), 404, "queue_not_found");
    assertThat(digest(redis)).isEqualTo(before);
  }

  @Test
  void aQueueWithJobsIsNotDeletedUnlessForced() {
    enqueue(s, "q", j("{'id':'a','payload':1,'delayMs':60000}"));
    enqueue(s, "q", j("{'id':'b','payload':1}"));
    String before = digest(redis);

    assertError(s.call("DELETE", "/v1/queues/q", null), 409, "queue_not_empty");
    assertInvalidField(s.call("DELETE", "/v1/queues/q?force=yes", null), "force");

    assertThat(digest(redis)).isEqualTo(before);
    JsonNode deleted = assertJson(s.call("DELETE", "/v1/queues/q?force=true", null), 200);
    assertThat(deleted.get("count").asLong()).isEqualTo(2);
    assertError(s.get("/v1/queues/q"), 404, "queue_not_found");
    assertThat(ContractSupport.namesOf(assertJson(s.get("/v1/queues"), 200).get("queues")))
        .isEmpty();
    assertThat(redis.server().command("KEYS", "*{q.*")).isBlank();
  }

  @Test
  void anEmptyQueueIsDeletedAndAnEnqueueCreatesItAgain() {
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    JsonNode d = claim(s, "q", "{\"max\":1}").get(0);
    assertNoContent(
        s.post("/v1/queues/q/jobs/a/ack", "{\"receipt\":\"" + d.get("receipt").asText() + "\"}"));

    assertNoContent(s.call("DELETE", "/v1/queues/q", null));

    assertError(s.get("/v1/queues/q"), 404, "queue_not_found");
    enqueue(s, "q", j("{'id':'a','payload':2}"));
    JsonNode view = assertJson(s.get("/v1/queues/q"), 200);
    assertThat(view.get("counters").get("enqueued").asLong()).isEqualTo(1);
    assertThat(view.get("paused").asBoolean()).isFalse();
  }
}
