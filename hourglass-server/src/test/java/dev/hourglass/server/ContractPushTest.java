package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.assertError;
import static dev.hourglass.server.ContractSupport.assertJson;
import static dev.hourglass.server.ContractSupport.enqueue;
import static dev.hourglass.server.ContractSupport.fieldNames;
import static dev.hourglass.server.ContractSupport.getJob;
import static dev.hourglass.server.ContractSupport.j;
import static dev.hourglass.server.ContractSupport.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.hourglass.QueueStats;
import dev.hourglass.testing.OrderDocuments;
import dev.hourglass.testing.RedisExtension;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** API.md "Consuming (push)": the server POSTs due jobs; a 2xx acks, anything else nacks. */
class ContractPushTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private TestServer s;
  private HttpServer receiver;
  private final List<String> received = new CopyOnWriteArrayList<>();
  private final AtomicInteger answerStatus = new AtomicInteger(200);
  private final AtomicBoolean hang = new AtomicBoolean();
  private final CountDownLatch released = new CountDownLatch(1);

  @BeforeEach
  void start() throws IOException {
    receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    receiver.createContext(
        "/hook",
        exchange -> {
          received.add(
              new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          if (hang.get()) {
            awaitRelease();
          }
          exchange.sendResponseHeaders(answerStatus.get(), -1);
          exchange.close();
        });
    receiver.start();
    s = TestServer.startQuickStop(redis.uri());
  }

  @AfterEach
  void stop() {
    released.countDown();
    s.close();
    receiver.stop(0);
  }

  /** Holds an answer until the test ends (the endpoint "hangs"). */
  private void awaitRelease() {
    try {
      released.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private String hookUrl() {
    return "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
  }

  private void pushTo(String queue) {
    TestServer.Response r =
        s.call(
            "PUT",
            "/v1/queues/" + queue,
            "{\"delivery\":{\"type\":\"http\",\"url\":\""
                + hookUrl()
                + "\",\"timeoutMs\":2000,\"concurrency\":2}}");
    assertThat(r.status()).as(r.body()).isIn(200, 201);
  }

  private QueueStats stats(String queue) {
    return s.server().hourglass().queue(queue).stats();
  }

  private String receivedBody(int index) {
    await().atMost(Duration.ofSeconds(10)).until(() -> received.size() > index);
    return received.get(index);
  }

  @Test
  void aDueJobIsPostedAndA2xxAcksIt() {
    pushTo("q");

    // An order document of about 1 KB: stored compressed, posted as enqueued.
    String doc = new String(new OrderDocuments(1).next(), StandardCharsets.UTF_8);
    enqueue(s, "q", "{\"id\":\"a\",\"payload\":" + doc + "}");

    String body = receivedBody(0);
    JsonNode json = parse(body);
    assertThat(fieldNames(json)).contains("id", "queue", "attempt", "payload");
    assertThat(json.get("id").asText()).isEqualTo("a");
    assertThat(json.get("queue").asText()).isEqualTo("q");
    assertThat(json.get("attempt").asInt()).isEqualTo(1);
    ContractSupport.assertRawPayload(body, doc);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertError(s.get("/v1/queues/q/jobs/a"), 404, "job_not_found"));
    assertThat(stats("q").counters().acked()).isEqualTo(1);
  }

  @Test
  void aNon2xxAnswerNacksTheJobByItsBackoff() {
    answerStatus.set(500);
    pushTo("q");

    enqueue(s, "q", j("{'id':'a','payload':1,'backoff':{'type':'fixed','delayMs':60000}}"));

    receivedBody(0);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              JsonNode job = getJob(s, "q", "a");
              assertThat(job.get("state").asText()).isEqualTo("delayed");
              assertThat(job.get("attempts").asInt()).isEqualTo(1);
              assertThat(job.has("lastError")).isTrue();
            });
    assertThat(stats("q").counters().retried()).isEqualTo(1);
  }

  @Test
  void noAnswerWithinTimeoutMsNacksTheJob() {
    hang.set(true);
    assertJson(
        s.call(
            "PUT",
            "/v1/queues/q",
            "{\"delivery\":{\"type\":\"http\",\"url\":\"" + hookUrl() + "\",\"timeoutMs\":300}}"),
        201);

    enqueue(s, "q", j("{'id':'a','payload':1,'backoff':{'type':'fixed','delayMs':60000}}"));

    receivedBody(0);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              JsonNode job = getJob(s, "q", "a");
              assertThat(job.get("state").asText()).isEqualTo("delayed");
              assertThat(job.get("attempts").asInt()).isEqualTo(1);
            });
    assertThat(stats("q").counters().retried()).isEqualTo(1);
  }

  @Test
  void afterSwitchingToPullNothingIsPosted() {
    pushTo("q");
    assertJson(s.call("PUT", "/v1/queues/q", j("{'delivery':{'type':'pull'}}")), 200);

    enqueue(s, "q", j("{'id':'a','payload':1}"));

    JsonNode jobs = ContractSupport.claim(s, "q", j("{'waitMs':2000}"));
    assertThat(ContractSupport.ids(jobs)).containsExactly("a");
    assertThat(received).isEmpty();
  }
}
