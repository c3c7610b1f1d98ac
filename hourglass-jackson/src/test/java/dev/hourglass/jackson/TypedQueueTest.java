package dev.hourglass.jackson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.Hourglass;
import dev.hourglass.JobInfo;
import dev.hourglass.Queue;
import dev.hourglass.Worker;
import dev.hourglass.testing.RedisExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Typed queues on a real Redis with the codecs of each Jackson line. */
class TypedQueueTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private Hourglass client;
  private final List<Worker> workers = new CopyOnWriteArrayList<>();

  private Hourglass connect(JacksonLine line) {
    client = Hourglass.builder().redisUri(redis.uri()).codecs(line.codecs()).build();
    return client;
  }

  @AfterEach
  void close() {
    workers.forEach(Worker::close);
    if (client != null) {
      client.close();
    }
  }

  @ParameterizedTest
  @MethodSource(JsonCodecTest.LINES)
  void aRecordTravelsFromEnqueueToTheHandler(JacksonLine line) {
    Hourglass hourglass = connect(line);
    OrderClosed order = new OrderClosed("42", 1999, Instant.parse("2026-01-02T03:04:05.678Z"));
    Queue<OrderClosed> orders = hourglass.queue("orders", OrderClosed.class);
    List<OrderClosed> handled = new CopyOnWriteArrayList<>();

    orders.enqueue(order, Duration.ZERO);
    start(orders.worker(job -> handled.add(job.payload())));

    await().atMost(30, TimeUnit.SECONDS).until(() -> handled.size() == 1);
    assertThat(handled.get(0)).isEqualTo(order);
  }

  @ParameterizedTest
  @MethodSource(JsonCodecTest.LINES)
  void aGenericListTravelsWithATypeReferenceCodec(JacksonLine line) {
    Hourglass hourglass = connect(line);
    Queue<List<Item>> batches = hourglass.queue("batches", line.itemList());
    List<List<Item>> handled = new CopyOnWriteArrayList<>();

    batches.enqueue(List.of(new Item("a", 1), new Item("b", 2)), Duration.ZERO);
    start(batches.worker(job -> handled.add(job.payload())));

    await().atMost(30, TimeUnit.SECONDS).until(() -> handled.size() == 1);
    assertThat(handled.get(0)).containsExactly(new Item("a", 1), new Item("b", 2));
  }

  @ParameterizedTest
  @MethodSource(JsonCodecTest.LINES)
  void anUndecodablePayloadGoesDeadWithTheDecoderMessageAndNeverReachesTheHandler(
      JacksonLine line) {
    Hourglass hourglass = connect(line);
    String notJson = hourglass.queue("orders").enqueue(bytes("not json"), Duration.ZERO).id();
    Queue<OrderClosed> orders = hourglass.queue("orders", OrderClosed.class);
    orders.enqueue(new OrderClosed("7", 1, Instant.EPOCH), Duration.ZERO);
    List<String> handledIds = new CopyOnWriteArrayList<>();

    start(orders.worker(job -> handledIds.add(job.id())));

    await().atMost(30, TimeUnit.SECONDS).until(() -> orders.dead().count() == 1);
    await().atMost(30, TimeUnit.SECONDS).until(() -> handledIds.size() == 1);
    assertThat(handledIds).doesNotContain(notJson);
    JobInfo<byte[]> dead = hourglass.queue("orders").dead().list(null, 10).jobs().get(0);
    assertThat(dead.id()).isEqualTo(notJson);
    assertThat(dead.payload().asString()).isEqualTo("not json");
    assertThat(dead.lastError())
        .hasValueSatisfying(
            error ->
                assertThat(error)
                    .contains(
                        "cannot decode payload as dev.hourglass.jackson.OrderClosed:"
                            + " Unrecognized token 'not'")
                    .doesNotContain("\n"));
  }

  private void start(Worker worker) {
    workers.add(worker);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
