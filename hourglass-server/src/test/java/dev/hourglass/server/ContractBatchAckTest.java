package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.assertError;
import static dev.hourglass.server.ContractSupport.assertErrorEntry;
import static dev.hourglass.server.ContractSupport.assertInvalidField;
import static dev.hourglass.server.ContractSupport.assertJson;
import static dev.hourglass.server.ContractSupport.claim;
import static dev.hourglass.server.ContractSupport.digest;
import static dev.hourglass.server.ContractSupport.enqueue;
import static dev.hourglass.server.ContractSupport.fieldNames;
import static dev.hourglass.server.ContractSupport.getJob;
import static dev.hourglass.server.ContractSupport.j;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.QueueStats;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** API.md 1.1 "Batch ack": {@code POST /v1/queues/{queue}/ack}. */
class ContractBatchAckTest extends ContractTestBase {
  private static final String ACK = "/v1/queues/q/ack";

  /** Enqueues ready jobs j0..j(n-1), claims them all and returns each one's receipt by id. */
  private Map<String, String> claimed(int n) {
    for (int i = 0; i < n; i++) {
      enqueue(s, "q", "{\"id\":\"j" + i + "\",\"payload\":" + i + "}");
    }
    Map<String, String> receipts = new HashMap<>();
    claim(s, "q", "{\"max\":100}").forEach(d -> receipts.put(d.get("id").asText(), receipt(d)));
    assertThat(receipts).hasSize(n);
    return receipts;
  }

  private static String receipt(JsonNode delivery) {
    return delivery.get("receipt").asText();
  }

  /** A body {@code {"acks": [...]}} of (id, receipt) pairs. */
  private static String acks(String... idReceipt) {
    ObjectNode body = ContractSupport.JSON.createObjectNode();
    ArrayNode list = body.putArray("acks");
    for (int i = 0; i < idReceipt.length; i += 2) {
      list.addObject().put("id", idReceipt[i]).put("receipt", idReceipt[i + 1]);
    }
    return body.toString();
  }

  /** POSTs a batch ack, asserts 200 {"results": [...]} with one result per ack; returns them. */
  private JsonNode ackBatch(String body, int count) {
    JsonNode answer = assertJson(s.post(ACK, body), 200);
    assertThat(fieldNames(answer)).containsExactly("results");
    assertThat(answer.get("results")).as("one result per ack, %s", answer).hasSize(count);
    return answer.get("results");
  }

  private static void assertAcked(JsonNode result, String id) {
    assertThat(fieldNames(result)).as("result %s", result).containsExactly("acked", "id");
    assertThat(result.get("id").asText()).isEqualTo(id);
    assertThat(result.get("acked").booleanValue()).isTrue();
  }

  /** Asserts {@code {"id": id, "error": {"code", "message"}}}; returns the message. */
  private static String assertFailed(JsonNode result, String id, String code) {
    assertThat(fieldNames(result)).as("result %s", result).containsExactly("error", "id");
    if (id == null) {
      assertThat(result.get("id").isNull()).as("result %s", result).isTrue();
    } else {
      assertThat(result.get("id").asText()).isEqualTo(id);
    }
    ObjectNode withoutId = ((ObjectNode) result.deepCopy());
    withoutId.remove("id");
    return assertErrorEntry(withoutId, code);
  }

  @Test
  void aBatchOfGoodReceiptsAcksEveryJob() {
    Map<String, String> r = claimed(5);

    JsonNode results =
        ackBatch(
            acks("j3", r.get("j3"), "j0", r.get("j0"), "j4", r.get("j4"), "j1", r.get("j1")), 4);

    assertAcked(results.get(0), "j3");
    assertAcked(results.get(1), "j0");
    assertAcked(results.get(2), "j4");
    assertAcked(results.get(3), "j1");
    QueueStats stats = stats("q");
    assertThat(stats.total()).as("j2 alone is left").isEqualTo(1);
    assertThat(stats.inflight()).isEqualTo(1);
    assertThat(stats.counters().acked()).isEqualTo(4);
    assertThat(getJob(s, "q", "j2").get("state").asText()).isEqualTo("inflight");
  }

  @Test
  void aStaleReceiptOrAnUnknownJobFailsAloneInRequestOrder() {
    Map<String, String> r = claimed(3);
    enqueue(s, "q", j("{'id':'ready','payload':1}"));

    JsonNode results =
        ackBatch(
            acks(
                "j0", r.get("j0"),
                "j1", "not-the-receipt",
                "nope", r.get("j2"),
                "ready", "whatever",
                "j2", r.get("j2")),
            5);

    assertAcked(results.get(0), "j0");
    assertThat(assertFailed(results.get(1), "j1", "stale_receipt")).isNotBlank();
    assertThat(assertFailed(results.get(2), "nope", "job_not_found")).isNotBlank();
    assertFailed(results.get(3), "ready", "stale_receipt");
    assertAcked(results.get(4), "j2");
    assertThat(getJob(s, "q", "j1").get("state").asText()).isEqualTo("inflight");
    assertThat(getJob(s, "q", "ready").get("state").asText()).isEqualTo("ready");
    assertThat(stats("q").counters().acked()).isEqualTo(2);
  }

  @Test
  void aMalformedElementFailsAloneNamingItsPath() {
    Map<String, String> r = claimed(2);
    String body =
        j(
            "{'acks':[{'id':'j0','receipt':'"
                + r.get("j0")
                + "'},5,{'id':'j1'},{'id':'bad id!','receipt':'x'},"
                + "{'id':'j1','receipt':'"
                + r.get("j1")
                + "','reciept':'x'},{'receipt':'x'},{'id':'j1','receipt':7}]}");

    JsonNode results = ackBatch(body, 7);

    assertAcked(results.get(0), "j0");
    assertThat(assertFailed(results.get(1), null, "invalid_field")).startsWith("acks[1]");
    assertThat(assertFailed(results.get(2), "j1", "invalid_field")).startsWith("acks[2].receipt");
    assertThat(assertFailed(results.get(3), null, "invalid_field")).startsWith("acks[3].id");
    assertThat(assertFailed(results.get(4), "j1", "invalid_field"))
        .isEqualTo("unknown field \"acks[4].reciept\"; did you mean \"receipt\"?");
    assertThat(assertFailed(results.get(5), null, "invalid_field")).startsWith("acks[5].id");
    assertThat(assertFailed(results.get(6), "j1", "invalid_field")).startsWith("acks[6].receipt");
    assertThat(getJob(s, "q", "j1").get("state").asText())
        .as("no malformed element acked it")
        .isEqualTo("inflight");
    assertThat(stats("q").counters().acked()).isEqualTo(1);
  }

  /** The same id twice settles in request order, as two single acks one after the other would. */
  @Test
  void duplicatesSettleInRequestOrder() {
    Map<String, String> r = claimed(2);

    JsonNode results =
        ackBatch(
            acks(
                "j0", r.get("j0"),
                "j0", r.get("j0"),
                "j1", "not-the-receipt",
                "j1", r.get("j1"),
                "j1", r.get("j1")),
            5);

    assertAcked(results.get(0), "j0");
    assertFailed(results.get(1), "j0", "job_not_found");
    assertFailed(results.get(2), "j1", "stale_receipt");
    assertAcked(results.get(3), "j1");
    assertFailed(results.get(4), "j1", "job_not_found");
    assertThat(stats("q").total()).isZero();
    assertThat(stats("q").counters().acked()).isEqualTo(2);
  }

  @Test
  void aThousandAcksAreAnsweredInRequestOrder() {
    int n = 1000;
    StringBuilder ids = new StringBuilder("{'jobs':[");
    for (int i = 0; i < n; i++) {
      ids.append(i == 0 ? "" : ",").append("{'id':'k").append(i).append("','payload':1}");
    }
    assertJson(s.post("/v1/queues/q/jobs/batch", j(ids + "]}")), 200);
    Map<String, String> r = new HashMap<>();
    for (int i = 0; i < n / 100; i++) {
      claim(s, "q", "{\"max\":100}").forEach(d -> r.put(d.get("id").asText(), receipt(d)));
    }
    assertThat(r).hasSize(n);
    String[] pairs = new String[2 * n];
    for (int i = 0; i < n; i++) {
      String id = "k" + (n - 1 - i); // reverse order: results must follow the request, not ids
      pairs[2 * i] = id;
      pairs[2 * i + 1] = i % 10 == 0 ? "stale" : r.get(id);
    }

    JsonNode results = ackBatch(acks(pairs), n);

    for (int i = 0; i < n; i++) {
      if (i % 10 == 0) {
        assertFailed(results.get(i), pairs[2 * i], "stale_receipt");
      } else {
        assertAcked(results.get(i), pairs[2 * i]);
      }
    }
    assertThat(stats("q").counters().acked()).isEqualTo(n - n / 10);
    assertThat(stats("q").inflight()).isEqualTo(n / 10);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "{}                                  | acks",
        "{'acks':null}                       | acks",
        "{'acks':[]}                         | acks",
        "{'acks':{'id':'j0','receipt':'x'}}  | acks",
        "{'acks':'j0'}                       | acks",
        "{'ack':[{'id':'j0','receipt':'x'}]} | unknown field \"ack\"; did you mean \"acks\"?",
        "{'acks':[{'id':'j0','receipt':'R'}],'x':1} | unknown field \"x\"",
      })
  void aBadBodyIs400InvalidFieldAndAcksNothing(String body, String message) {
    Map<String, String> r = claimed(1);
    String before = digest(redis);

    assertInvalidField(s.post(ACK, j(body).replace("R", r.get("j0"))), message);

    assertThat(digest(redis)).isEqualTo(before);
    assertThat(getJob(s, "q", "j0").get("state").asText()).isEqualTo("inflight");
  }

  @Test
  void moreThanAThousandAcksAre400AndAckNothing() {
    Map<String, String> r = claimed(1);
    String[] pairs = new String[2 * 1001];
    for (int i = 0; i < 1001; i++) {
      pairs[2 * i] = "j0";
      pairs[2 * i + 1] = r.get("j0");
    }
    String before = digest(redis);

    assertInvalidField(s.post(ACK, acks(pairs)), "acks");

    assertThat(digest(redis)).isEqualTo(before);
  }

  @Test
  void anEmptyBodyIs400AndAMalformedOneInvalidJson() {
    assertInvalidField(s.post(ACK, null), "acks");
    assertInvalidField(s.post(ACK, ""), "acks");
    assertError(s.post(ACK, "{\"acks\":["), 400, "invalid_json");
    assertError(s.post(ACK, "[]"), 400, "invalid_json");
  }

  @Test
  void anUnknownQueueIs404AndCreatesNothing() {
    assertError(s.post("/v1/queues/fresh/ack", acks("a", "x")), 404, "queue_not_found");
    assertThat(s.server().hourglass().queueNames()).isEmpty();
  }
}
