package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.assertError;
import static dev.hourglass.server.ContractSupport.assertInvalidField;
import static dev.hourglass.server.ContractSupport.assertJson;
import static dev.hourglass.server.ContractSupport.fieldNames;
import static dev.hourglass.server.ContractSupport.j;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hourglass.Delivery;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import dev.hourglass.testing.OrderDocuments;
import dev.hourglass.testing.Postgres;
import dev.hourglass.testing.RedisExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * API.md 1.1 "History": a queue's finished jobs from the archive database, newest first with
 * filters and cursors, the last record of an id, strict query parameters, the archive's metrics;
 * and 404 {@code archive_not_configured} from a server without an archive.
 */
class ContractHistoryTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();
  @RegisterExtension static Postgres pg = Postgres.perClass();

  static final java.util.Set<String> ITEM_FIELDS =
      java.util.Set.of(
          "id",
          "queue",
          "outcome",
          "finishedAt",
          "createdAt",
          "runAt",
          "attempts",
          "lastError",
          "payload");

  static TestServer withArchive() {
    return TestServer.startWithArchive(redis.uri(), pg);
  }

  @Test
  void withoutAnArchiveBothRoutesAnswerArchiveNotConfigured() {
    try (TestServer s = TestServer.startQuickStop(redis.uri())) {
      assertError(s.get("/v1/queues/q/history"), 404, "archive_not_configured");
      assertError(s.get("/v1/queues/q/history/job-1"), 404, "archive_not_configured");
    }
  }

  @Test
  void finishedJobsArePagedNewestFirstWithTheirFieldsAndTheLastRecordOfAnId() {
    try (TestServer s = withArchive()) {
      String q = "/v1/queues/hist";
      // a1's payload, an order document of about 1 KB, is stored compressed, archived as enqueued
      String doc = new String(new OrderDocuments(3).next(), StandardCharsets.UTF_8);
      for (int i = 0; i < 5; i++) {
        String payload = i == 1 ? doc : "{\"n\":" + i + "}";
        assertJson(s.post(q + "/jobs", "{\"id\":\"a" + i + "\",\"payload\":" + payload + "}"), 201);
      }
      assertJson(s.post(q + "/jobs", j("{'id':'later','payload':[1,2],'delayMs':3600000}")), 201);
      JsonNode claimed = assertJson(s.post(q + "/claim", j("{'max':5}")), 200);
      List<String> receipts = new ArrayList<>();
      claimed.get("jobs").forEach(d -> receipts.add(d.get("receipt").asText()));
      assertThat(receipts).hasSize(5);
      for (JsonNode d : claimed.get("jobs")) {
        String path = q + "/jobs/" + d.get("id").asText();
        if (d.get("id").asText().equals("a4")) {
          assertThat(
                  s.post(
                          path + "/nack",
                          j(
                              "{'receipt':'"
                                  + d.get("receipt").asText()
                                  + "','dead':true,'error':'no way'}"))
                      .status())
              .isLessThan(300);
        } else {
          assertThat(
                  s.post(path + "/ack", j("{'receipt':'" + d.get("receipt").asText() + "'}"))
                      .status())
              .isLessThan(300);
        }
      }
      assertThat(s.call("DELETE", q + "/jobs/later", null).status()).isEqualTo(204);

      await("six records archived")
          .atMost(Duration.ofSeconds(30))
          .until(() -> s.get(q + "/history?limit=1000").json().get("jobs").size() == 6);
      JsonNode page = assertJson(s.get(q + "/history"), 200);
      assertThat(fieldNames(page)).containsExactlyInAnyOrder("jobs", "next");
      assertThat(page.get("next").isNull()).isTrue();
      long previous = Long.MAX_VALUE;
      for (JsonNode item : page.get("jobs")) {
        assertThat(fieldNames(item)).isEqualTo(new java.util.TreeSet<>(ITEM_FIELDS));
        assertThat(item.get("finishedAt").asLong()).isLessThanOrEqualTo(previous);
        previous = item.get("finishedAt").asLong();
      }

      JsonNode acked = assertJson(s.get(q + "/history/a1"), 200);
      assertThat(acked.get("outcome").asText()).isEqualTo("acked");
      assertThat(acked.get("queue").asText()).isEqualTo("hist");
      assertThat(acked.get("attempts").asInt()).isEqualTo(1);
      assertThat(acked.get("lastError").isNull()).isTrue();
      assertThat(acked.get("payload").toString()).isEqualTo(doc);
      JsonNode dead = assertJson(s.get(q + "/history/a4"), 200);
      assertThat(dead.get("outcome").asText()).isEqualTo("dead");
      assertThat(dead.get("lastError").asText()).contains("no way");
      JsonNode cancelled = assertJson(s.get(q + "/history/later"), 200);
      assertThat(cancelled.get("outcome").asText()).isEqualTo("cancelled");
      assertThat(cancelled.get("runAt").asLong())
          .isGreaterThan(cancelled.get("createdAt").asLong() + 3_500_000);
      assertError(s.get(q + "/history/never"), 404, "job_not_found");

      JsonNode onlyDead = assertJson(s.get(q + "/history?outcome=dead"), 200);
      assertThat(onlyDead.get("jobs")).hasSize(1);
      long t = acked.get("finishedAt").asLong();
      JsonNode since = assertJson(s.get(q + "/history?since=" + (t + 3_600_000)), 200);
      assertThat(since.get("jobs")).isEmpty();

      List<String> ids = new ArrayList<>();
      String cursor = null;
      do {
        JsonNode p =
            assertJson(
                s.get(q + "/history?limit=4" + (cursor == null ? "" : "&cursor=" + cursor)), 200);
        p.get("jobs").forEach(i -> ids.add(i.get("id").asText()));
        cursor = p.get("next").isNull() ? null : p.get("next").asText();
      } while (cursor != null);
      assertThat(ids).containsExactlyInAnyOrder("a0", "a1", "a2", "a3", "a4", "later");

      String metrics = s.get("/metrics").body();
      assertThat(metrics).contains("hourglass_archive_rows_total");
      assertThat(metrics).contains("hourglass_archive_failures_total");
      await("the outbox meters of the queue")
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> s.get("/metrics").body().contains("hourglass_outbox_records{queue=\"hist\"}"));
      assertThat(s.get("/metrics").body())
          .contains("hourglass_outbox_dropped_total{queue=\"hist\"}");
    }
  }

  @Test
  void aDeletedQueuesFinishedJobsAreArchivedFirstAndItsHistoryStays() {
    try (TestServer s = withArchive()) {
      // Deleted at once: the archiver has not even listed the new queue yet, so only the delete's
      // own drain can store the record before the outbox goes with the queue.
      String q = "/v1/queues/gone";
      assertJson(s.post(q + "/jobs", j("{'id':'last-one','payload':7}")), 201);
      JsonNode d = assertJson(s.post(q + "/claim", j("{'max':1}")), 200).get("jobs").get(0);
      String receipt = d.get("receipt").asText();
      assertThat(s.post(q + "/jobs/last-one/ack", j("{'receipt':'" + receipt + "'}")).status())
          .isEqualTo(204);
      assertThat(s.call("DELETE", q, null).status()).isEqualTo(204);
      JsonNode r = assertJson(s.get(q + "/history/last-one"), 200);
      assertThat(r.get("outcome").asText()).isEqualTo("acked");
    }
  }

  @Test
  void whileTheDatabaseIsDownTheMetricsShowTheOutboxGrowThenDrain() {
    try (TestServer s = withArchive()) {
      Queue<byte[]> q = s.server().hourglass().queue("metered");
      q.enqueue(JobSpec.builder().id("first").payload("1").build());
      ackAll(q, 1);
      await("the first job archived")
          .atMost(Duration.ofSeconds(30))
          .until(() -> s.get("/v1/queues/metered/history/first").status() == 200);
      pg.stop();
      try {
        for (int i = 0; i < 40; i++) {
          q.enqueue(JobSpec.builder().id("j" + i).payload("1").build());
        }
        ackAll(q, 40);
        await("the gauge shows 40 waiting and failures are counted")
            .atMost(Duration.ofSeconds(60))
            .until(
                () -> {
                  String m = s.get("/metrics").body();
                  return m.contains("hourglass_outbox_records{queue=\"metered\"} 40.0")
                      && !m.contains("hourglass_archive_failures_total 0.0");
                });
        assertError(s.get("/v1/queues/metered/history"), 503, "archive_unavailable");
      } finally {
        pg.startAgain();
      }
      await("drained: the gauge back to 0 and every job in the history")
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  s.get("/metrics")
                          .body()
                          .contains("hourglass_outbox_records{queue=\"metered\"} 0.0")
                      && s.get("/v1/queues/metered/history?limit=100").json().get("jobs").size()
                          == 41);
      assertThat(s.get("/metrics").body()).contains("hourglass_archive_rows_total 41.0");
    }
  }

  private static void ackAll(Queue<byte[]> q, int n) {
    int acked = 0;
    while (acked < n) {
      for (Delivery<byte[]> d : q.claim(n - acked, Duration.ofMinutes(1))) {
        q.ack(d);
        acked++;
      }
    }
  }

  @Test
  void badQueryParametersAreRefused() {
    try (TestServer s = withArchive()) {
      String q = "/v1/queues/hist/history";
      assertInvalidField(s.get(q + "?outcome=done"), "outcome");
      assertInvalidField(s.get(q + "?outcome=ACKED"), "outcome");
      assertInvalidField(s.get(q + "?limit=0"), "limit");
      assertInvalidField(s.get(q + "?limit=1001"), "limit");
      assertInvalidField(s.get(q + "?since=yesterday"), "since");
      assertInvalidField(s.get(q + "?since=-1"), "since");
      assertInvalidField(s.get(q + "?cursor=nonsense"), "cursor");
      assertInvalidField(s.get("/v1/queues/hist/history/bad%20id"), "id");
      assertError(s.get("/v1/queues/bad%20queue/history"), 400, "invalid_queue_name");
    }
  }
}
