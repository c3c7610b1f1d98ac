package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.JOB_FIELDS;
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
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hourglass.QueueStats;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** API.md "Dead letters": list with paging, requeue one or all, purge. */
class ContractDeadTest extends ContractTestBase {

  /** Makes dead jobs d0..d{n-1} in {@code queue}, each with lastError "failed". */
  private void deadJobs(String queue, int n) {
    for (int i = 0; i < n; i++) {
      enqueue(s, queue, "{\"id\":\"d" + i + "\",\"payload\":{\"n\":" + i + "},\"maxAttempts\":1}");
    }
    JsonNode claimed = claim(s, queue, "{\"max\":" + n + "}");
    assertThat(claimed).hasSize(n);
    for (JsonNode d : claimed) {
      assertNoContent(
          s.post(
              "/v1/queues/" + queue + "/jobs/" + d.get("id").asText() + "/nack",
              "{\"receipt\":\"" + d.get("receipt").asText() + "\",\"error\":\"failed\"}"));
    }
    assertThat(stats(queue).dead()).isEqualTo(n);
  }

  @Test
  void listAnswersEveryDeadJobWithoutNextWhenThePageHoldsAll() {
    deadJobs("q", 3);
    enqueue(s, "q", j("{'id':'alive','payload':1}"));

    JsonNode body = assertJson(s.get("/v1/queues/q/dead"), 200);

    assertThat(fieldNames(body)).containsExactlyInAnyOrder("jobs", "next");
    assertThat(body.get("next").isNull()).isTrue();
    assertThat(ids(body.get("jobs"))).containsExactlyInAnyOrder("d0", "d1", "d2");
    for (JsonNode job : body.get("jobs")) {
      assertThat(fieldNames(job)).containsAll(JOB_FIELDS).contains("lastError");
      assertThat(job.get("state").asText()).isEqualTo("dead");
      assertThat(job.get("queue").asText()).isEqualTo("q");
      assertThat(job.get("attempts").asInt()).isEqualTo(1);
      assertThat(job.get("lastError").asText()).isEqualTo("failed");
    }
  }

  @Test
  void listPagesWithLimitAndCursor() {
    deadJobs("q", 5);
    List<String> seen = new ArrayList<>();
    List<Integer> pageSizes = new ArrayList<>();

    String cursor = null;
    do {
      String path =
          "/v1/queues/q/dead?limit=2"
              + (cursor == null
                  ? ""
                  : "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8));
      JsonNode page = assertJson(s.get(path), 200);
      pageSizes.add(page.get("jobs").size());
      seen.addAll(ids(page.get("jobs")));
      JsonNode next = page.get("next");
      assertThat(next.isNull() || next.isTextual()).as("next is a string or null").isTrue();
      cursor = next.isNull() ? null : next.asText();
      assertThat(pageSizes).as("pages so far").hasSizeLessThanOrEqualTo(3);
    } while (cursor != null);

    assertThat(pageSizes).containsExactly(2, 2, 1);
    assertThat(seen).containsExactlyInAnyOrder("d0", "d1", "d2", "d3", "d4");
  }

  @ParameterizedTest
  @ValueSource(strings = {"limit=0", "limit=1001", "limit=-1", "limit=abc", "limit="})
  void listWithALimitOutside1To1000Is400(String query) {
    deadJobs("q", 1);

    assertInvalidField(s.get("/v1/queues/q/dead?" + query), "limit");
  }

  @Test
  void listWithACursorTheServerDidNotGiveIs400() {
    deadJobs("q", 1);

    assertInvalidField(s.get("/v1/queues/q/dead?cursor=not-a-cursor"), "cursor");
  }

  @Test
  void listOfAnUnknownQueueIs404() {
    assertError(s.get("/v1/queues/unknown/dead"), 404, "queue_not_found");
  }

  @Test
  void requeueOneMovesItBackToReady() {
    deadJobs("q", 2);

    assertNoContent(s.post("/v1/queues/q/dead/d1/requeue", null));

    JsonNode job = getJob(s, "q", "d1");
    assertThat(job.get("state").asText()).isEqualTo("ready");
    assertThat(job.get("attempts").asInt()).isZero();
    QueueStats stats = stats("q");
    assertThat(stats.dead()).isEqualTo(1);
    assertThat(stats.ready()).isEqualTo(1);
    JsonNode again = claim(s, "q", "{}");
    assertThat(ids(again)).containsExactly("d1");
    assertThat(again.get(0).get("attempt").asInt()).isEqualTo(1);
  }

  @Test
  void requeueOfAJobThatIsNotDeadIs409NamingItsStateAndOfNoJob404() {
    deadJobs("q", 1);
    enqueue(s, "q", j("{'id':'alive','payload':1,'delayMs':60000}"));
    enqueue(s, "q", j("{'id':'leased','payload':1}"));
    claimOne(s, "q");
    String before = digest(redis);

    assertError(s.post("/v1/queues/q/dead/nope/requeue", null), 404, "job_not_found");
    assertThat(assertError(s.post("/v1/queues/q/dead/alive/requeue", null), 409, "job_state"))
        .isEqualTo("cannot requeue job alive in queue q: it is delayed");
    assertThat(assertError(s.post("/v1/queues/q/dead/leased/requeue", null), 409, "job_inflight"))
        .isEqualTo("cannot requeue job leased in queue q: it is inflight");
    assertError(s.post("/v1/queues/unknown/dead/d0/requeue", null), 404, "queue_not_found");

    assertThat(digest(redis)).isEqualTo(before);
    assertThat(getJob(s, "q", "alive").get("state").asText()).isEqualTo("delayed");
  }

  @Test
  void requeueAllAnswersTheCount() {
    deadJobs("q", 5);

    JsonNode body = assertJson(s.post("/v1/queues/q/dead/requeue", null), 200);

    assertThat(fieldNames(body)).containsExactly("count");
    assertThat(body.get("count").isIntegralNumber()).isTrue();
    assertThat(body.get("count").asLong()).isEqualTo(5);
    QueueStats stats = stats("q");
    assertThat(stats.dead()).isZero();
    assertThat(stats.ready()).isEqualTo(5);
    assertThat(assertJson(s.post("/v1/queues/q/dead/requeue", null), 200).get("count").asLong())
        .isZero();
  }

  @Test
  void purgeAnswersTheCountAndDeletesTheDeadJobs() {
    deadJobs("q", 3);
    enqueue(s, "q", j("{'id':'alive','payload':1}"));

    JsonNode body = assertJson(s.call("DELETE", "/v1/queues/q/dead", null), 200);

    assertThat(fieldNames(body)).containsExactly("count");
    assertThat(body.get("count").asLong()).isEqualTo(3);
    assertError(s.get("/v1/queues/q/jobs/d0"), 404, "job_not_found");
    assertThat(getJob(s, "q", "alive").get("state").asText()).isEqualTo("ready");
    JsonNode list = assertJson(s.get("/v1/queues/q/dead"), 200);
    assertThat(list.get("jobs")).isEmpty();
    assertThat(list.get("next").isNull()).isTrue();
    assertThat(assertJson(s.call("DELETE", "/v1/queues/q/dead", null), 200).get("count").asLong())
        .isZero();
  }

  @Test
  void requeueAllAndPurgeOfAnUnknownQueueAre404() {
    assertError(s.post("/v1/queues/unknown/dead/requeue", null), 404, "queue_not_found");
    assertError(s.call("DELETE", "/v1/queues/unknown/dead", null), 404, "queue_not_found");
  }
}
