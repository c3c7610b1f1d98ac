package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.assertError;
import static dev.hourglass.server.ContractSupport.assertInvalidField;
import static dev.hourglass.server.ContractSupport.assertJson;
import static dev.hourglass.server.ContractSupport.assertRawPayload;
import static dev.hourglass.server.ContractSupport.enqueue;
import static dev.hourglass.server.ContractSupport.j;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hourglass.Hourglass;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import dev.hourglass.QueueSettings;
import dev.hourglass.internal.store.Keys;
import dev.hourglass.testing.OrderDocuments;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Compressed payloads over HTTP: the queue setting {@code compressAbove} round-trips through PUT
 * and GET and refuses what is out of range; an order document enqueued over HTTP is stored
 * compressed and comes back byte for byte from GET and from a claim; a payload the server cannot
 * open is never answered to a claim, and its job goes back by its backoff with the reason.
 */
class ContractCompressionTest extends ContractTestBase {

  @Test
  void theSettingRoundTripsAndIsChecked() {
    assertThat(queueValue(assertJson(s.call("PUT", "/v1/queues/q", j("{}")), 201))).isNull();
    assertThat(queueValue(assertJson(s.call("PUT", "/v1/queues/q", j("{'compressAbove':0}")), 200)))
        .isEqualTo("0");
    assertThat(queueValue(assertJson(s.get("/v1/queues/q"), 200))).isEqualTo("0");
    assertThat(
            queueValue(assertJson(s.call("PUT", "/v1/queues/q", j("{'compressAbove':null}")), 200)))
        .isNull();

    assertInvalidField(s.call("PUT", "/v1/queues/r", j("{'compressAbove':-1}")), "compressAbove");
    assertInvalidField(
        s.call("PUT", "/v1/queues/r", j("{'compressAbove':67108865}")), "compressAbove");
    assertInvalidField(s.call("PUT", "/v1/queues/r", j("{'compressAbove':'1'}")), "compressAbove");
    assertInvalidField(s.call("PUT", "/v1/queues/r", j("{'compressAbove':1.5}")), "compressAbove");
    assertError(s.get("/v1/queues/r"), 404, "queue_not_found"); // nothing was created
  }

  @Test
  void anOrderDocumentIsStoredCompressedAndComesBackByteForByte() {
    String doc = new String(new OrderDocuments(9).next(), StandardCharsets.UTF_8);
    enqueue(s, "orders", "{\"id\":\"o-1\",\"payload\":" + doc + "}");
    enqueue(s, "plain", "{\"id\":\"o-1\",\"payload\":" + doc + "}");
    assertJson(s.call("PUT", "/v1/queues/plain", j("{'compressAbove':0}")), 200);
    enqueue(s, "plain", "{\"id\":\"o-2\",\"payload\":" + doc + "}");

    assertThat(storedFlags("orders", "o-1")).isEqualTo(1);
    assertThat(storedFlags("plain", "o-2")).isZero();
    assertRawPayload(s.get("/v1/queues/orders/jobs/o-1").body(), doc);
    String claimed = s.post("/v1/queues/orders/claim", j("{'max':1}")).body();
    assertRawPayload(claimed, doc);
  }

  @Test
  void aPayloadTheServerCannotOpenIsNeverAnsweredButRetriedWithTheReason() {
    // A producer with zstd-jni compresses with the queue's dictionary; a server using the pure-Java
    // zstd (where the native library does not load) cannot open that.
    s.close();
    System.setProperty("hourglass.zstd", "java");
    try {
      s = TestServer.startQuickStop(redis.uri());
    } finally {
      System.clearProperty("hourglass.zstd");
    }
    try (Hourglass producer = Hourglass.builder().redisUri(redis.uri()).build()) {
      Queue<byte[]> q = producer.queue("orders");
      OrderDocuments docs = new OrderDocuments(5);
      AtomicInteger n = new AtomicInteger();
      await("the producer compresses with a dictionary the server cannot use")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(1))
          .until(
              () -> {
                String id = "later-" + n.incrementAndGet();
                q.enqueue(
                    JobSpec.builder()
                        .id(id)
                        .payload(docs.next())
                        .delay(Duration.ofHours(1))
                        .build());
                return s.get("/v1/queues/orders/jobs/" + id).body().contains("[unreadable payload");
              });
      q.enqueue(JobSpec.builder().id("now").payload(docs.next()).build());
      assertThat(s.get("/v1/queues/orders/jobs/now").body()).contains("[unreadable payload");

      JsonNode claimed = assertJson(s.post("/v1/queues/orders/claim", j("{'max':10}")), 200);

      assertThat(claimed.get("jobs")).as("no stand-in payload is answered").isEmpty();
      await("the job goes back by its backoff with the reason")
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                JsonNode job = assertJson(s.get("/v1/queues/orders/jobs/now"), 200);
                assertThat(job.get("attempts").asInt()).isEqualTo(1);
                assertThat(job.get("lastError").asText()).contains("needs zstd-jni");
              });
      assertThat(q.get("now").orElseThrow().payload().readable())
          .as("the producer itself still reads it")
          .isTrue();
    }
  }

  private static String queueValue(com.fasterxml.jackson.databind.JsonNode queue) {
    var v = queue.get("compressAbove");
    assertThat(v).as("compressAbove is always shown").isNotNull();
    return v.isNull() ? null : v.asText();
  }

  /** The flags byte of the job's record as Redis holds it. */
  private static int storedFlags(String queue, String id) {
    var p = new Keys("hg").partition(queue, 0, 1, QueueSettings.DEFAULT_POOLS);
    String hex = redis.server().command("EVAL", HEX_OF_FIELD, "1", p.pool(id), p.member(id));
    return Integer.parseInt(hex.strip(), 16);
  }

  /** The flags byte (the 19th) of a hash field, in hex, read by Lua to keep the reply text. */
  private static final String HEX_OF_FIELD =
      "return string.format('%02x', string.byte(redis.call('HGET', KEYS[1], ARGV[1]), 19))";
}
