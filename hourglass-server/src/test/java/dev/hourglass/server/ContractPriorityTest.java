package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.assertError;
import static dev.hourglass.server.ContractSupport.assertErrorEntry;
import static dev.hourglass.server.ContractSupport.assertInvalidField;
import static dev.hourglass.server.ContractSupport.assertJson;
import static dev.hourglass.server.ContractSupport.claimOne;
import static dev.hourglass.server.ContractSupport.enqueue;
import static dev.hourglass.server.ContractSupport.getJob;
import static dev.hourglass.server.ContractSupport.ids;
import static dev.hourglass.server.ContractSupport.j;
import static dev.hourglass.server.ContractSupport.queueView;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/**
 * API.md 1.2 "Priority" over HTTP: {@code priority} 0..9 on enqueue and batch enqueue (anything
 * else is 400 {@code invalid_field} naming it, and writes nothing), returned by GET, the
 * jobs-by-state listing and claims; the queue's {@code defaults.priority}; claims take the highest
 * priority first, then the earliest due time, then the id; a retried job keeps its priority.
 */
class ContractPriorityTest extends ContractTestBase {

  @Test
  void aJobsPriorityIsCheckedStoredAndReturned() {
    JsonNode created = enqueue(s, "q", j("{'id':'p7','payload':1,'priority':7}"));
    assertThat(created.get("state").asText()).isEqualTo("ready");
    assertThat(getJob(s, "q", "p7").get("priority").asInt()).isEqualTo(7);
    enqueue(s, "q", j("{'id':'plain','payload':2}"));
    assertThat(getJob(s, "q", "plain").get("priority").asInt()).isZero();

    for (String bad : new String[] {"10", "-1", "1.5", "'3'", "true", "{}"}) {
      assertInvalidField(
          s.post("/v1/queues/q/jobs", j("{'id':'bad','payload':1,'priority':" + bad + "}")),
          "priority");
    }
    assertError(s.get("/v1/queues/q/jobs/bad"), 404, "job_not_found");
  }

  @Test
  void aBatchTakesPrioritiesPerJobAndRefusesABadOneAlone() {
    JsonNode answer =
        assertJson(
            s.post(
                "/v1/queues/q/jobs/batch",
                j(
                    "{'jobs':[{'id':'a','payload':1,'priority':9},"
                        + "{'id':'b','payload':2,'priority':12},{'id':'c','payload':3}]}")),
            200);
    JsonNode results = answer.get("results");
    assertThat(results.get(0).get("id").asText()).isEqualTo("a");
    assertThat(assertErrorEntry(results.get(1), "invalid_field")).startsWith("jobs[1].priority");
    assertThat(getJob(s, "q", "a").get("priority").asInt()).isEqualTo(9);
    assertThat(getJob(s, "q", "c").get("priority").asInt()).isZero();
    assertError(s.get("/v1/queues/q/jobs/b"), 404, "job_not_found");
  }

  @Test
  void claimsTakeTheHighestPriorityThenTheEarliestDueThenTheId() {
    long past = System.currentTimeMillis() - 60_000;
    enqueue(s, "q", j("{'id':'zero-old','payload':0,'runAt':" + (past - 5000) + "}"));
    enqueue(s, "q", j("{'id':'five-b','payload':0,'priority':5,'runAt':" + past + "}"));
    enqueue(s, "q", j("{'id':'five-a','payload':0,'priority':5,'runAt':" + past + "}"));
    enqueue(s, "q", j("{'id':'five-early','payload':0,'priority':5,'runAt':" + (past - 1) + "}"));
    enqueue(s, "q", j("{'id':'nine','payload':0,'priority':9,'runAt':" + (past + 1000) + "}"));
    enqueue(s, "q", j("{'id':'nine-later','payload':0,'priority':9,'delayMs':3600000}"));

    JsonNode ready = assertJson(s.get("/v1/queues/q/jobs?state=ready"), 200).get("jobs");
    // The listing stays in due order, each job with its priority.
    assertThat(ids(ready)).containsExactly("zero-old", "five-early", "five-a", "five-b", "nine");
    assertThat(ready.get(4).get("priority").asInt()).isEqualTo(9);
    JsonNode delayed = assertJson(s.get("/v1/queues/q/jobs?state=delayed"), 200).get("jobs");
    assertThat(ids(delayed)).containsExactly("nine-later");
    assertThat(delayed.get(0).get("priority").asInt()).isEqualTo(9);
    assertThat(queueView(s, "q").get("ready").asInt()).isEqualTo(5);

    JsonNode first = claimOne(s, "q");
    assertThat(first.get("id").asText()).isEqualTo("nine");
    assertThat(first.get("priority").asInt()).isEqualTo(9);
    // Retried at once, it keeps its priority and comes first again.
    assertThat(
            s.post(
                    "/v1/queues/q/jobs/nine/nack",
                    j(
                        "{'receipt':'"
                            + first.get("receipt").asText()
                            + "','error':'again','delayMs':0}"))
                .status())
        .isEqualTo(204);
    assertThat(getJob(s, "q", "nine").get("priority").asInt()).isEqualTo(9);
    String[] order = {"nine", "five-early", "five-a", "five-b", "zero-old"};
    for (String id : order) {
      assertThat(claimOne(s, "q").get("id").asText()).isEqualTo(id);
    }
  }

  @Test
  void theQueueDefaultPriorityIsSetReturnedAndApplied() {
    JsonNode view = assertJson(s.call("PUT", "/v1/queues/q", j("{}")), 201);
    assertThat(view.get("defaults").get("priority").asInt()).isZero();
    view = assertJson(s.call("PUT", "/v1/queues/q", j("{'defaults':{'priority':4}}")), 200);
    assertThat(view.get("defaults").get("priority").asInt()).isEqualTo(4);
    assertThat(queueView(s, "q").get("defaults").get("priority").asInt()).isEqualTo(4);
    enqueue(s, "q", j("{'id':'d','payload':1}"));
    enqueue(s, "q", j("{'id':'own','payload':1,'priority':0}"));
    assertThat(getJob(s, "q", "d").get("priority").asInt()).isEqualTo(4);
    assertThat(getJob(s, "q", "own").get("priority").asInt()).isZero();

    assertInvalidField(
        s.call("PUT", "/v1/queues/r", j("{'defaults':{'priority':10}}")), "defaults.priority");
    assertInvalidField(
        s.call("PUT", "/v1/queues/r", j("{'defaults':{'priority':'high'}}")), "defaults.priority");
    assertError(s.get("/v1/queues/r"), 404, "queue_not_found");
  }
}
