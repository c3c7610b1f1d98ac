package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.hourglass.spi.PayloadCodec;
import dev.hourglass.spi.PayloadCodecFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Queue handles typed by payload: the built-in codecs, a plug-in codec, and what cannot decode. */
class TypedPayloadTest extends HourglassTestBase {
  private static final Duration LIVENESS = RedisProbe.LIVENESS;

  /** A payload type of the test's own, with a codec of the test's own: "id|amount". */
  record OrderClosed(long orderId, int cents) {}

  static final PayloadCodec<OrderClosed> ORDER_CODEC =
      new PayloadCodec<>() {
        @Override
        public byte[] encode(OrderClosed value) {
          if (value.cents() < 0) {
            throw new IllegalArgumentException("negative amount " + value.cents());
          }
          return (value.orderId() + "|" + value.cents()).getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public OrderClosed decode(byte[] bytes) {
          String[] parts = new String(bytes, StandardCharsets.UTF_8).split("\\|");
          if (parts.length != 2) {
            throw new IllegalArgumentException("not an order: expected id|cents");
          }
          return new OrderClosed(Long.parseLong(parts[0]), Integer.parseInt(parts[1]));
        }

        @Override
        public String toString() {
          return "order";
        }
      };

  static final PayloadCodecFactory FACTORY =
      new PayloadCodecFactory() {
        @Override
        @SuppressWarnings("unchecked")
        public <T> Optional<PayloadCodec<T>> codecFor(Class<T> type) {
          return type == OrderClosed.class
              ? Optional.of((PayloadCodec<T>) ORDER_CODEC)
              : Optional.empty();
        }
      };

  @Test
  void stringQueueRoundTripsThroughEnqueueGetClaimAndWorker() {
    Hourglass h = live();
    Queue<String> q = h.queue("text", String.class);
    assertThat(q.codec()).isSameAs(PayloadCodec.utf8());
    EnqueueResult r = q.enqueue("grüße, 世界", Duration.ZERO);
    assertThat(q.get(r.id()).orElseThrow().payload().value()).isEqualTo("grüße, 世界");
    assertThat(h.queue("text").get(r.id()).orElseThrow().payload().bytes())
        .isEqualTo("grüße, 世界".getBytes(StandardCharsets.UTF_8));

    List<String> seen = new CopyOnWriteArrayList<>();
    q.enqueueAt("second", Instant.now().minusSeconds(5));
    q.worker(job -> seen.add(job.payload()));
    await().atMost(LIVENESS).until(() -> seen.size() == 2);
    assertThat(seen).containsExactlyInAnyOrder("grüße, 世界", "second");
  }

  @Test
  void bytesQueueKeepsEveryByte() {
    Hourglass h = manual();
    Queue<byte[]> q = h.queue("bytes", byte[].class);
    byte[] all = new byte[256];
    for (int i = 0; i < all.length; i++) {
      all[i] = (byte) i;
    }
    q.enqueue(q.spec(all).id("b").build());
    all[0] = 42; // the spec took a copy
    Delivery<byte[]> d = q.claim(1, null).get(0);
    assertThat(d.payload().value()).hasSize(256).startsWith(0, 1, 2).endsWith(254, 255);
    byte[] copy = d.payload().bytes();
    copy[1] = 99;
    assertThat(d.payload().bytes()[1]).as("records hand out copies").isEqualTo((byte) 1);
  }

  @Test
  void codecFactoryTypesAQueueAndItsWorkerReceivesTheValue() {
    Hourglass h = client(b -> b.codecs(FACTORY));
    Queue<OrderClosed> orders = h.queue("orders", OrderClosed.class);
    orders.enqueue(orders.spec(new OrderClosed(42, 1999)).id("order-42").build());
    orders.enqueue(new OrderClosed(43, 5), Duration.ZERO);
    assertThat(orders.get("order-42").orElseThrow().payload().value())
        .isEqualTo(new OrderClosed(42, 1999));

    List<OrderClosed> seen = new CopyOnWriteArrayList<>();
    orders.worker(job -> seen.add(job.payload()));
    await().atMost(LIVENESS).until(() -> seen.size() == 2);
    assertThat(seen).containsExactlyInAnyOrder(new OrderClosed(42, 1999), new OrderClosed(43, 5));
    await().atMost(LIVENESS).until(() -> orders.stats().counters().acked() == 2);
  }

  @Test
  void undecodablePayloadGoesDeadOnceWithTheDecodersMessageAndNeverReachesTheHandler() {
    Hourglass h = live();
    Queue<OrderClosed> orders = h.queue("mixed", ORDER_CODEC);
    h.queue("mixed").enqueue(JobSpec.builder().id("junk").payload("not an order").build());
    orders.enqueue(orders.spec(new OrderClosed(1, 2)).id("good").build());

    List<String> handled = new CopyOnWriteArrayList<>();
    orders.worker(job -> handled.add(job.id()));
    await().atMost(LIVENESS).until(() -> orders.stats().dead() == 1 && handled.contains("good"));

    JobInfo<OrderClosed> junk = orders.get("junk").orElseThrow();
    assertThat(junk.state()).isEqualTo(JobState.DEAD);
    assertThat(junk.attempts()).as("one attempt, not retried").isEqualTo(1);
    assertThat(junk.lastError().orElseThrow())
        .startsWith("cannot decode the payload with codec order: ")
        .contains("not an order: expected id|cents")
        .doesNotContain("\n");
    assertThat(junk.payloadAsString())
        .as("the payload is kept for inspection")
        .isEqualTo("not an order");
    assertThat(handled).containsExactly("good");
    assertThatThrownBy(() -> junk.payload().value())
        .isInstanceOf(PayloadDecodingException.class)
        .hasMessageContaining("not an order");
    assertThat(orders.stats().counters().retried()).isZero();
  }

  @Test
  void invalidUtf8IsUndecodableForAStringQueue() {
    Hourglass h = live();
    h.queue("utf").enqueue(JobSpec.builder().id("bad").payload(new byte[] {(byte) 0xC3}).build());
    List<String> handled = new CopyOnWriteArrayList<>();
    h.queue("utf", String.class).worker(job -> handled.add(job.payload()));
    await().atMost(LIVENESS).until(() -> h.queue("utf").stats().dead() == 1);
    assertThat(h.queue("utf").get("bad").orElseThrow().lastError().orElseThrow())
        .contains("codec utf8")
        .contains(
            "the bytes are not valid UTF-8 (java.nio.charset.MalformedInputException: Input length = 1)");
    assertThat(handled).isEmpty();
  }

  @Test
  void aTypeWithoutCodecOrAPayloadTheCodecRefusesIsAClearErrorAndWritesNothing() {
    Hourglass h = manual();
    assertThatThrownBy(() -> h.queue("orders", OrderClosed.class))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("no codec for " + OrderClosed.class.getName());
    Queue<OrderClosed> orders = h.queue("orders", ORDER_CODEC);
    assertThatThrownBy(() -> orders.enqueue(new OrderClosed(1, -5), Duration.ZERO))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("cannot be encoded by codec order")
        .hasMessageContaining("negative amount -5");
    assertThatThrownBy(() -> orders.enqueue(null, Duration.ZERO))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("payload");
    assertThat(h.queueExists("orders")).isFalse();
  }
}
