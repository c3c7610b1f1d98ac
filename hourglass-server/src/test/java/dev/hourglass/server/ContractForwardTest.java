package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.assertInvalidField;
import static dev.hourglass.server.ContractSupport.assertJson;
import static dev.hourglass.server.ContractSupport.enqueue;
import static dev.hourglass.server.ContractSupport.j;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.hourglass.testing.FreePorts;
import dev.hourglass.testing.KafkaBroker;
import dev.hourglass.testing.OrderDocuments;
import dev.hourglass.testing.RabbitMqBroker;
import dev.hourglass.testing.RedisExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * API.md 1.1 "Forwarding to a broker": the {@code amqp} and {@code kafka} delivery types over HTTP,
 * against a real RabbitMQ node and a real Kafka broker.
 */
class ContractForwardTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();
  static RabbitMqBroker rabbit;
  static KafkaBroker kafka;
  private TestServer s;

  @BeforeAll
  static void startBrokers() {
    rabbit = RabbitMqBroker.create();
    kafka = KafkaBroker.create();
  }

  @AfterAll
  static void stopBrokers() {
    if (kafka != null) {
      kafka.close();
    }
    if (rabbit != null) {
      rabbit.close();
    }
  }

  @BeforeEach
  void start() {
    s = TestServer.startQuickStop(redis.uri());
  }

  @AfterEach
  void stop() {
    s.close();
  }

  private TestServer.Response put(String queue, String delivery) {
    return s.call("PUT", "/v1/queues/" + queue, "{\"delivery\":" + delivery + "}");
  }

  private static String amqp(String uri, String more) {
    return j(
        "{'type':'amqp','uri':'" + uri + "','exchange':'ex-q','routingKey':'close'" + more + "}");
  }

  @Test
  void amqpDeliveryForwardsWithThePasswordMaskedAndKeptOnAPutOfTheMask() throws Exception {
    ConnectionFactory f = new ConnectionFactory();
    f.setUri(rabbit.uri());
    try (Connection c = f.newConnection();
        Channel ch = c.createChannel()) {
      ch.exchangeDeclare("ex-q", "direct", true);
      ch.queueDeclare("sink-q", true, false, false, null);
      ch.queueBind("sink-q", "ex-q", "close");

      assertJson(put("q", amqp(rabbit.uri(), ",'concurrency':4")), 201);
      JsonNode shown = assertJson(s.get("/v1/queues/q"), 200).get("delivery");
      String masked = rabbit.uri().replace("guest:guest@", "guest:***@");
      assertThat(shown.get("uri").asText()).isEqualTo(masked);
      assertThat(shown.get("concurrency").asInt()).isEqualTo(4);
      assertThat(s.get("/v1/queues").body()).doesNotContain("guest:guest");
      // The delivery as GET shows it, sent back: the stored password stays, forwarding works.
      assertJson(put("q", amqp(masked, ",'timeoutMs':5000")), 200);
      assertThat(assertJson(s.get("/v1/queues/q"), 200).get("delivery").get("timeoutMs").asInt())
          .isEqualTo(5000);

      // An order document of about 1 KB: stored compressed, forwarded as enqueued.
      String doc = new String(new OrderDocuments(2).next(), StandardCharsets.UTF_8);
      enqueue(s, "q", "{\"id\":\"a\",\"payload\":" + doc + ",\"delayMs\":300}");
      AtomicReference<GetResponse> got = new AtomicReference<>();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                if (got.get() == null) {
                  got.set(ch.basicGet("sink-q", true));
                }
                return got.get() != null;
              });
      GetResponse m = got.get();
      assertThat(new String(m.getBody(), StandardCharsets.UTF_8)).isEqualTo(doc);
      assertThat(m.getProps().getMessageId()).isEqualTo("a");
      Map<String, Object> h = m.getProps().getHeaders();
      assertThat(h.get("hourglass-job-id").toString()).isEqualTo("a");
      assertThat(h.get("hourglass-queue").toString()).isEqualTo("q");
      assertThat(h.get("hourglass-attempt")).isEqualTo(1);
      await().until(() -> s.get("/v1/queues/q/jobs/a").status() == 404); // acked
      assertThat(s.get("/metrics").body()).contains("mode=\"forward\"");
    }
  }

  @Test
  void kafkaDeliveryForwardsKeyedByJobId() {
    assertJson(
        put(
            "k",
            j(
                "{'type':'kafka','bootstrapServers':'"
                    + kafka.bootstrapServers()
                    + "','topic':'topic-k','key':'id'}")),
        201);
    JsonNode shown = assertJson(s.get("/v1/queues/k"), 200).get("delivery");
    assertThat(shown.get("key").asText()).isEqualTo("id");
    assertThat(shown.get("concurrency").asInt()).isEqualTo(256);
    enqueue(s, "k", j("{'id':'b','payload':[1,2],'delayMs':200}"));
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            Map.of("bootstrap.servers", kafka.bootstrapServers()),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      TopicPartition p = new TopicPartition("topic-k", 0);
      consumer.assign(List.of(p));
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                return !records.isEmpty();
              });
    }
    ConsumerRecord<byte[], byte[]> r = records.get(0);
    assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("b");
    assertThat(new String(r.value(), StandardCharsets.UTF_8)).isEqualTo("[1,2]");
    assertThat(
            new String(r.headers().lastHeader("hourglass-queue").value(), StandardCharsets.UTF_8))
        .isEqualTo("k");
    await().until(() -> s.get("/v1/queues/k/jobs/b").status() == 404);

    // Back to pull: the forwarder stops and jobs wait for a claim.
    assertJson(put("k", j("{'type':'pull'}")), 200);
    enqueue(s, "k", j("{'id':'c','payload':1}"));
    JsonNode claimed = ContractSupport.claimOne(s, "k");
    assertThat(claimed.get("id").asText()).isEqualTo("c");
  }

  @Test
  void theBrokerPasswordIsNeverLogged() {
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    root.addAppender(logs);
    try {
      String uri = "amqp://app:hunter2-pw@127.0.0.1:" + FreePorts.any() + "/%2f";
      assertJson(put("p", amqp(uri, "")), 201);
      assertJson(put("p", amqp(uri.replace("hunter2-pw", "***"), ",'concurrency':2")), 200);
      enqueue(s, "p", j("{'id':'a','payload':1,'maxAttempts':1}"));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> "dead".equals(ContractSupport.getJob(s, "p", "a").path("state").asText()));
      assertThat(ContractSupport.getJob(s, "p", "a").get("lastError").asText())
          .startsWith("connection refused: 127.0.0.1:");
      s.close(); // the shutdown's logs too
    } finally {
      root.detachAppender(logs);
    }
    assertThat(logs.list).isNotEmpty();
    assertThat(logs.list)
        .allSatisfy(e -> assertThat(e.getFormattedMessage()).doesNotContain("hunter2"));
  }

  @Test
  void badForwardSettingsAre400NamingTheField() {
    String servers = kafka.bootstrapServers();
    assertThat(
            ContractSupport.assertError(
                put("q", amqp(rabbit.uri(), ",'exchang':'x'")), 400, "invalid_field"))
        .contains("\"delivery.exchang\"");
    assertInvalidField(
        put("q", j("{'type':'amqp','uri':'http://h/','exchange':'e'}")), "delivery.uri");
    assertInvalidField(
        put("q", j("{'type':'amqp','uri':'amqp://u:***@h/%2f','exchange':'e'}")), "delivery.uri");
    assertInvalidField(put("q", j("{'type':'amqp','uri':'amqp://h/'}")), "delivery.exchange");
    assertInvalidField(
        put("q", j("{'type':'kafka','bootstrapServers':'" + servers + "','topic':'t','key':'x'}")),
        "delivery.key");
    assertInvalidField(
        put("q", j("{'type':'kafka','bootstrapServers':'nohost','topic':'t'}")),
        "delivery.bootstrapServers");
    assertThat(
            ContractSupport.assertError(
                put(
                    "q",
                    j(
                        "{'type':'kafka','bootstrapServers':'"
                            + servers
                            + "','topic':'t','url':'x'}")),
                400,
                "invalid_field"))
        .contains("\"delivery.url\"");
    assertInvalidField(
        put(
            "q",
            j("{'type':'kafka','bootstrapServers':'" + servers + "','topic':'t','timeoutMs':0}")),
        "delivery.timeoutMs");
    String bad =
        put("q", j("{'type':'amqp','uri':'amqp://u:hunter2@h:1/a/b','exchange':'e'}")).body();
    assertThat(bad).contains("delivery.uri").doesNotContain("hunter2");
  }
}
