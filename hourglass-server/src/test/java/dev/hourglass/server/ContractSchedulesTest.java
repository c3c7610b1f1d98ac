package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.assertError;
import static dev.hourglass.server.ContractSupport.assertInvalidField;
import static dev.hourglass.server.ContractSupport.assertJson;
import static dev.hourglass.server.ContractSupport.assertNoContent;
import static dev.hourglass.server.ContractSupport.claim;
import static dev.hourglass.server.ContractSupport.fieldNames;
import static dev.hourglass.server.ContractSupport.getJob;
import static dev.hourglass.server.ContractSupport.j;
import static dev.hourglass.server.ContractSupport.receiptBody;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** API.md 1.2 "Schedules". */
class ContractSchedulesTest extends ContractTestBase {
  private static final String S = "/v1/queues/q/schedules/";

  @Test
  void putCreatesThenReplacesAndGetListsIt() {
    JsonNode created =
        assertJson(
            s.call(
                "PUT",
                S + "nightly",
                j(
                    "{'cron':'30 2 * * *','timeZone':'Europe/Berlin','payload':{'a':[1,2]},"
                        + "'maxAttempts':3,'priority':4,'ttlMs':60000}")),
            201);
    assertThat(fieldNames(created))
        .containsExactlyInAnyOrder(
            "id",
            "queue",
            "cron",
            "timeZone",
            "payload",
            "maxAttempts",
            "priority",
            "ttlMs",
            "paused",
            "nextRuns");
    assertThat(created.get("id").asText()).isEqualTo("nightly");
    assertThat(created.get("queue").asText()).isEqualTo("q");
    assertThat(created.get("cron").asText()).isEqualTo("30 2 * * *");
    assertThat(created.get("timeZone").asText()).isEqualTo("Europe/Berlin");
    assertThat(created.get("payload").toString()).isEqualTo("{\"a\":[1,2]}");
    assertThat(created.get("paused").asBoolean()).isFalse();
    assertThat(created.get("nextRuns")).hasSize(3);
    long first = created.get("nextRuns").get(0).asLong();

    JsonNode job = getJob(s, "q", "nightly:" + first);
    assertThat(job.get("schedule").asText()).isEqualTo("nightly");
    assertThat(job.get("runAt").asLong()).isEqualTo(first);
    assertThat(job.get("maxAttempts").asInt()).isEqualTo(3);

    JsonNode replaced =
        assertJson(
            s.call(
                "PUT",
                S + "nightly",
                j("{'cron':'30 2 * * *','timeZone':'Europe/Berlin','payload':'new'}")),
            200);
    assertThat(replaced.get("nextRuns").get(0).asLong()).isEqualTo(first); // timing unchanged
    assertThat(getJob(s, "q", "nightly:" + first).get("payload").asText()).isEqualTo("new");

    JsonNode got = assertJson(s.get(S + "nightly"), 200);
    assertThat(got.get("payload").asText()).isEqualTo("new");
    assertThat(got.has("maxAttempts")).isFalse();
    JsonNode list = assertJson(s.get("/v1/queues/q/schedules"), 200);
    assertThat(fieldNames(list)).containsExactly("schedules");
    assertThat(list.get("schedules")).hasSize(1);
    assertThat(list.get("schedules").get(0).get("id").asText()).isEqualTo("nightly");

    // the first put enqueued an occurrence; the second kept it
    assertThat(s.get("/metrics").body())
        .containsPattern("(?m)^hourglass_jobs_occurrences_total\\{queue=\"q\"\\} 1(\\.0)?$");
  }

  @Test
  void anIntervalScheduleIsDeliveredWithItsScheduleNamed() {
    JsonNode created = assertJson(s.call("PUT", S + "beat", j("{'every':1000,'payload':7}")), 201);
    assertThat(created.get("every").asLong()).isEqualTo(1000);
    assertThat(created.get("timeZone").asText()).isEqualTo("UTC");
    assertThat(
            assertJson(
                    s.call(
                        "PUT",
                        S + "zoned",
                        j("{'every':60000,'timeZone':'Asia/Tokyo','payload':1}")),
                    201)
                .get("timeZone")
                .asText())
        .isEqualTo("Asia/Tokyo");
    assertNoContent(s.call("DELETE", S + "zoned", null));
    JsonNode[] got = new JsonNode[1];
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> (got[0] = claim(s, "q", "{\"max\":1,\"waitMs\":2000}")).size() == 1);
    JsonNode d = got[0].get(0);
    assertThat(d.get("schedule").asText()).isEqualTo("beat");
    assertThat(d.get("id").asText()).isEqualTo("beat:" + d.get("runAt").asLong());
    assertNoContent(s.post("/v1/queues/q/jobs/" + d.get("id").asText() + "/ack", receiptBody(d)));
    JsonNode listed = assertJson(s.get("/v1/queues/q/jobs?state=delayed"), 200);
    assertThat(listed.get("jobs")).hasSize(1);
    assertThat(listed.get("jobs").get(0).get("schedule").asText()).isEqualTo("beat");
  }

  @Test
  void pauseResumeAndDelete() {
    assertJson(s.call("PUT", S + "s", j("{'every':60000,'payload':1}")), 201);
    JsonNode paused = assertJson(s.post(S + "s/pause", ""), 200);
    assertThat(paused.get("paused").asBoolean()).isTrue();
    assertThat(stats("q").delayed()).isZero();
    JsonNode resumed = assertJson(s.post(S + "s/resume", "{}"), 200);
    assertThat(resumed.get("paused").asBoolean()).isFalse();
    assertThat(stats("q").delayed()).isEqualTo(1);
    assertThat(assertError(s.post(S + "s/pause", j("{'now':true}")), 400, "invalid_field"))
        .contains("\"now\"");

    assertNoContent(s.call("DELETE", S + "s", null));
    assertThat(stats("q").delayed()).isZero();
    assertError(s.get(S + "s"), 404, "schedule_not_found");
    assertError(s.call("DELETE", S + "s", null), 404, "schedule_not_found");
    assertError(s.post(S + "s/pause", ""), 404, "schedule_not_found");
    assertError(s.post(S + "s/resume", ""), 404, "schedule_not_found");
  }

  @Test
  void invalidSchedulesAreRefusedNamingTheFieldAndNothingIsWritten() {
    assertInvalidField(s.call("PUT", S + "s", j("{'cron':'61 * * * *','payload':1}")), "cron");
    assertInvalidField(s.call("PUT", S + "s", j("{'cron':'* * * * * *','payload':1}")), "cron");
    assertInvalidField(
        s.call("PUT", S + "s", j("{'cron':'* * * * *','timeZone':'Mars/Olympus','payload':1}")),
        "timeZone");
    assertInvalidField(s.call("PUT", S + "s", j("{'every':999,'payload':1}")), "every");
    assertInvalidField(
        s.call("PUT", S + "s", j("{'every':1000,'startAt':2000,'endAt':1000,'payload':1}")),
        "endAt");
    assertInvalidField(
        s.call("PUT", S + "s", j("{'every':1000,'cron':'* * * * *','payload':1}")), "cron");
    assertInvalidField(s.call("PUT", S + "s", j("{'payload':1}")), "cron");
    assertInvalidField(s.call("PUT", S + "s", j("{'every':1000}")), "payload");
    assertThat(
            assertError(
                s.call("PUT", S + "s", j("{'every':1000,'payload':1,'evry':5}")),
                400,
                "invalid_field"))
        .contains("\"evry\"");
    assertInvalidField(
        s.call("PUT", S + "s", j("{'every':1000,'payload':1,'priority':10}")), "priority");
    assertInvalidField(s.call("PUT", S + "a:b", j("{'every':1000,'payload':1}")), "id");
    JsonNode list = assertJson(s.get("/v1/queues/q/schedules"), 200);
    assertThat(list.get("schedules")).isEmpty();
  }

  @Test
  void deletingAQueueDeletesItsSchedules() {
    assertJson(s.call("PUT", S + "s", j("{'every':60000,'payload':1}")), 201);
    assertJson(s.call("DELETE", "/v1/queues/q?force=true", null), 200);
    assertJson(s.call("PUT", "/v1/queues/q", "{}"), 201);
    assertThat(assertJson(s.get("/v1/queues/q/schedules"), 200).get("schedules")).isEmpty();
  }
}
