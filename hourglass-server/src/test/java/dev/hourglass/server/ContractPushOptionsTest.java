package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.assertInvalidField;
import static dev.hourglass.server.ContractSupport.assertJson;
import static dev.hourglass.server.ContractSupport.enqueue;
import static dev.hourglass.server.ContractSupport.getJob;
import static dev.hourglass.server.ContractSupport.j;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpServer;
import dev.hourglass.testing.RedisExtension;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * API.md 1.1 "Push delivery options": headers, HMAC signatures, the secret shown as "***", and a
 * one-line {@code lastError} naming the cause, against a real endpoint and a real Redis.
 */
class ContractPushOptionsTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private static final Pattern SIGNATURE = Pattern.compile("t=(\\d+),v1=([0-9a-f]{64})");

  private record Received(Headers headers, byte[] body) {}

  private TestServer s;
  private HttpServer receiver;
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final AtomicReference<String> answer = new AtomicReference<>("");
  private volatile int answerStatus = 200;
  private final AtomicBoolean hang = new AtomicBoolean();
  private final CountDownLatch released = new CountDownLatch(1);

  @BeforeEach
  void start() throws IOException {
    receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    receiver.createContext(
        "/hook",
        exchange -> {
          received.add(
              new Received(exchange.getRequestHeaders(), exchange.getRequestBody().readAllBytes()));
          if (hang.get()) {
            try {
              released.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          byte[] body = answer.get().getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(answerStatus, body.length == 0 ? -1 : body.length);
          exchange.getResponseBody().write(body);
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

  private String hookUrl() {
    return "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
  }

  private TestServer.Response put(String queue, String delivery) {
    return s.call("PUT", "/v1/queues/" + queue, "{\"delivery\":" + delivery + "}");
  }

  private String http(String url, String more) {
    return "{\"type\":\"http\",\"url\":\"" + url + "\",\"timeoutMs\":2000" + more + "}";
  }

  private Received awaitPost(int index) {
    await().atMost(Duration.ofSeconds(10)).until(() -> received.size() > index);
    return received.get(index);
  }

  private static String hmacHex(String secret, String signed, byte[] body) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    mac.update(signed.getBytes(StandardCharsets.UTF_8));
    mac.update(body);
    return HexFormat.of().formatHex(mac.doFinal());
  }

  /** Asserts the POST is signed with {@code secret} over its exact body; returns t. */
  private static long assertSigned(Received post, String secret) throws Exception {
    String header = post.headers().getFirst("Hourglass-Signature");
    assertThat(header).as("Hourglass-Signature").isNotNull();
    Matcher m = SIGNATURE.matcher(header);
    assertThat(m.matches()).as("signature format: %s", header).isTrue();
    String expected = hmacHex(secret, m.group(1) + ".", post.body());
    assertThat(m.group(2)).as("v1 verifies with the secret").isEqualTo(expected);
    return Long.parseLong(m.group(1));
  }

  @Test
  void headersArriveAndTheSignatureVerifiesOverTheExactBody() throws Exception {
    String delivery =
        http(hookUrl(), ",'headers':{'X-Tenant':'acme','X-Trace':'a b'},'secret':'s3'");
    assertJson(put("q", j(delivery)), 201);

    enqueue(s, "q", j("{'id':'a','payload':{'x': [1, 2.50], 'name': 'Zoë €'}}"));

    Received post = awaitPost(0);
    assertThat(post.headers().getFirst("X-Tenant")).isEqualTo("acme");
    assertThat(post.headers().getFirst("X-Trace")).isEqualTo("a b");
    assertThat(post.headers().getFirst("Hourglass-Job-Id")).isEqualTo("a");
    long t = assertSigned(post, "s3");
    assertThat(t).isPositive();
    assertThat(hmacHex("other", t + ".", post.body()))
        .as("another secret does not verify")
        .isNotEqualTo(
            SIGNATURE.matcher(post.headers().getFirst("Hourglass-Signature")).replaceAll("$2"));
  }

  @Test
  void getShowsTheSecretMaskedAndAPutOfTheMaskKeepsIt() throws Exception {
    assertJson(put("q", j(http(hookUrl(), ",'headers':{'X-A':'1'},'secret':'topsecret'"))), 201);

    JsonNode shown = assertJson(s.get("/v1/queues/q"), 200).get("delivery");
    assertThat(shown.get("secret").asText()).isEqualTo("***");
    assertThat(shown.get("headers").get("X-A").asText()).isEqualTo("1");
    assertThat(s.get("/v1/queues/q").body()).doesNotContain("topsecret");
    assertThat(s.get("/v1/queues").body()).doesNotContain("topsecret");

    // The delivery as GET shows it, sent back with a header changed: the stored secret stays.
    assertJson(put("q", j(http(hookUrl(), ",'headers':{'X-A':'2'},'secret':'***'"))), 200);
    assertThat(assertJson(s.get("/v1/queues/q"), 200).get("delivery").get("secret").asText())
        .isEqualTo("***");
    enqueue(s, "q", j("{'id':'a','payload':1}"));
    Received post = awaitPost(0);
    assertThat(post.headers().getFirst("X-A")).isEqualTo("2");
    assertSigned(post, "topsecret");

    // Left out, the secret is removed.
    assertJson(put("q", j(http(hookUrl(), ""))), 200);
    assertThat(assertJson(s.get("/v1/queues/q"), 200).get("delivery").has("secret")).isFalse();
    enqueue(s, "q", j("{'id':'b','payload':1}"));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                received.stream()
                    .anyMatch(r -> "b".equals(r.headers().getFirst("Hourglass-Job-Id"))));
    Received unsigned =
        received.stream()
            .filter(r -> "b".equals(r.headers().getFirst("Hourglass-Job-Id")))
            .findFirst()
            .orElseThrow();
    assertThat(unsigned.headers().getFirst("Hourglass-Signature")).isNull();
  }

  @Test
  void theSecretIsNeverLogged() {
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    root.addAppender(logs);
    try {
      answerStatus = 500;
      assertJson(put("q", j(http(hookUrl(), ",'secret':'hunter2-secret'"))), 201);
      assertJson(put("q", j(http(hookUrl(), ",'secret':'***','concurrency':3"))), 200);
      assertInvalidField(put("q", j(http(hookUrl(), ",'secret':5"))), "delivery.secret");
      enqueue(s, "q", j(RETRY_LATER));
      awaitRetried("q", "a");
      s.close(); // the shutdown's logs too
    } finally {
      root.detachAppender(logs);
    }
    assertThat(logs.list).as("log events").isNotEmpty();
    for (ILoggingEvent e : logs.list) {
      assertThat(e.getFormattedMessage()).doesNotContain("hunter2");
      if (e.getThrowableProxy() != null) {
        assertThat(e.getThrowableProxy().getMessage()).doesNotContain("hunter2");
      }
    }
  }

  @Test
  void badHeadersAndSecretsAreRefusedNamingTheField() {
    String url = hookUrl();
    assertInvalidField(put("q", j(http(url, ",'headers':{'Host':'x'}"))), "delivery.headers.Host");
    assertInvalidField(
        put("q", j(http(url, ",'headers':{'content-length':'1'}"))),
        "delivery.headers.content-length");
    assertInvalidField(
        put("q", j(http(url, ",'headers':{'Transfer-Encoding':'chunked'}"))),
        "delivery.headers.Transfer-Encoding");
    assertInvalidField(
        put("q", j(http(url, ",'headers':{'Hourglass-Signature':'x'}"))),
        "delivery.headers.Hourglass-Signature");
    assertInvalidField(put("q", j(http(url, ",'headers':{'X Y':'1'}"))), "delivery.headers.X Y");
    assertInvalidField(put("q", j(http(url, ",'headers':{'X-A':1}"))), "delivery.headers.X-A");
    assertInvalidField(
        put("q", http(url, ",\"headers\":{\"X-A\":\"a\\r\\nX-B: b\"}")), "delivery.headers.X-A");
    assertInvalidField(
        put("q", j(http(url, ",'headers':{'X-A':'1','x-a':'2'}"))), "delivery.headers.x-a");
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 21; i++) {
      many.append(i == 0 ? "" : ",").append("'X-").append(i).append("':'v'");
    }
    assertInvalidField(put("q", j(http(url, ",'headers':{" + many + "}"))), "delivery.headers");
    assertInvalidField(
        put("q", j(http(url, ",'headers':{'X-A':'" + "v".repeat(1025) + "'}"))),
        "delivery.headers.X-A");
    assertInvalidField(put("q", j(http(url, ",'headers':['X-A']"))), "delivery.headers");
    assertInvalidField(put("q", j(http(url, ",'secret':''"))), "delivery.secret");
    assertInvalidField(put("q", j(http(url, ",'secret':'***'"))), "delivery.secret");
    assertInvalidField(put("q", j(http(url, ",'signingSecret':'x'"))), "unknown field");
    // Nothing was written.
    assertThat(s.get("/v1/queues/q").status()).isEqualTo(404);
  }

  private JsonNode awaitRetried(String queue, String id) {
    AtomicReference<JsonNode> job = new AtomicReference<>();
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              job.set(getJob(s, queue, id));
              assertThat(job.get().get("state").asText()).isEqualTo("delayed");
              assertThat(job.get().get("attempts").asInt()).isEqualTo(1);
            });
    return job.get();
  }

  private static final String RETRY_LATER =
      "{'id':'a','payload':1,'maxAttempts':3,'backoff':{'type':'fixed','delayMs':60000}}";

  @Test
  void a503NamesTheStatusAndTheAnswer() {
    answerStatus = 503;
    answer.set("billing down");
    assertJson(put("q", j(http(hookUrl(), ""))), 201);

    enqueue(s, "q", j(RETRY_LATER));

    assertThat(awaitRetried("q", "a").get("lastError").asText())
        .isEqualTo("HTTP 503: billing down");
  }

  @Test
  void aLongAnswerIsCutTo200CharactersOnOneLine() {
    answerStatus = 500;
    answer.set("line one\r\n  line two\n" + "x".repeat(500));
    assertJson(put("q", j(http(hookUrl(), ""))), 201);

    enqueue(s, "q", j(RETRY_LATER));

    String expected = ("line one line two " + "x".repeat(500)).substring(0, 200);
    assertThat(awaitRetried("q", "a").get("lastError").asText()).isEqualTo("HTTP 500: " + expected);
  }

  @Test
  void theLastAttemptGoesDeadWithTheReason() {
    answerStatus = 503;
    answer.set("billing down");
    assertJson(put("q", j(http(hookUrl(), ""))), 201);

    enqueue(s, "q", j("{'id':'a','payload':1,'maxAttempts':1}"));

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              JsonNode job = getJob(s, "q", "a");
              assertThat(job.get("state").asText()).isEqualTo("dead");
              assertThat(job.get("lastError").asText()).isEqualTo("HTTP 503: billing down");
            });
  }

  @Test
  void noAnswerInTimeIsATimeout() {
    hang.set(true);
    assertJson(put("q", j("{'type':'http','url':'" + hookUrl() + "','timeoutMs':300}")), 201);

    enqueue(s, "q", j(RETRY_LATER));

    assertThat(awaitRetried("q", "a").get("lastError").asText()).isEqualTo("timeout after 300 ms");
  }

  @Test
  void aRefusedConnectionSaysSo() throws IOException {
    int port;
    try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = closed.getLocalPort();
    }
    assertJson(put("q", j(http("http://127.0.0.1:" + port + "/hook", ""))), 201);

    enqueue(s, "q", j(RETRY_LATER));

    assertThat(awaitRetried("q", "a").get("lastError").asText()).isEqualTo("connection refused");
  }
}
