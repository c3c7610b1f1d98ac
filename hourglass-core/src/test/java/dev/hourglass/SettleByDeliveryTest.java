package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Settling by the delivery itself, and a handler's say in the outcome without throwing. */
class SettleByDeliveryTest extends HourglassTestBase {
  private static final Duration LIVENESS = RedisProbe.LIVENESS;

  @Test
  void ackAndNackTakeTheDelivery() {
    Queue<String> q = manual().queue("settle", String.class);
    q.enqueue(q.spec("x").id("x").backoff(Backoff.fixed(Duration.ofMinutes(7))).build());
    q.enqueue(q.spec("y").id("y").build());
    List<Delivery<String>> got = q.claim(2, null);
    Delivery<String> x = got.get(0).id().equals("x") ? got.get(0) : got.get(1);
    Delivery<String> y = x == got.get(0) ? got.get(1) : got.get(0);

    Instant before = redisNow();
    NackResult retried = q.nack(x, Nack.retry("partner down"));
    assertThat(retried.dead()).isFalse();
    assertThat(Duration.between(before, retried.at()))
        .as("by the delivery's own backoff: fixed 7 min")
        .isBetween(Duration.ofMinutes(7).minusSeconds(1), Duration.ofMinutes(7).plusSeconds(5));
    assertThat(q.get("x").orElseThrow().lastError()).hasValue("partner down");

    q.ack(y);
    assertThat(q.get("y")).isEmpty();
    assertThatThrownBy(() -> q.ack(y)).isInstanceOf(JobNotFoundException.class);
    assertThat(q.stats().counters().acked()).isEqualTo(1);
    assertThat(q.stats().counters().retried()).isEqualTo(1);
  }

  @Test
  void aHandlerRetriesAfterItsOwnDelayOrSendsToDeadWithoutThrowing() {
    Hourglass h = live();
    Queue<String> q = h.queue("say", String.class);
    q.enqueue(q.spec("later").id("later").maxAttempts(5).build());
    q.enqueue(q.spec("give up").id("dead").maxAttempts(5).build());
    q.enqueue(q.spec("last").id("last").maxAttempts(1).build());
    Map<String, List<Integer>> attempts = new ConcurrentHashMap<>();
    q.worker(
        job -> {
          attempts.computeIfAbsent(job.id(), k -> new CopyOnWriteArrayList<>()).add(job.attempt());
          switch (job.id()) {
            case "later" -> {
              if (job.attempt() == 1) {
                job.retryAfter(Duration.ofMillis(300), "partner said Retry-After: 0.3");
              }
            }
            case "dead" -> job.dead("order 42 does not exist");
            case "last" -> job.retryAfter(Duration.ZERO, "no attempts left");
            default -> throw new IllegalStateException(job.id());
          }
        });
    await()
        .atMost(LIVENESS)
        .until(() -> q.stats().counters().acked() == 1 && q.stats().dead() == 2);
    assertThat(attempts.get("later")).containsExactly(1, 2);
    assertThat(attempts.get("dead")).containsExactly(1);
    assertThat(attempts.get("last")).containsExactly(1);
    assertThat(q.get("dead").orElseThrow().lastError()).hasValue("order 42 does not exist");
    assertThat(q.get("last").orElseThrow().lastError()).hasValue("no attempts left");
    assertThat(q.stats().counters().retried()).isEqualTo(1);
  }

  @Test
  void aLastErrorIsOneLineOfAtMostAThousandCharacters() {
    Queue<String> q = manual().queue("errors", String.class);
    q.enqueue(q.spec("x").id("x").build());
    Delivery<String> d = q.claim(1, null).get(0);
    q.nack(d, Nack.retry("first line\n  at somewhere(Some.java:1)\r\n" + "y".repeat(2000)));
    String error = q.get("x").orElseThrow().lastError().orElseThrow();
    assertThat(error).startsWith("first line at somewhere(Some.java:1) yyy").hasSize(1000);
  }

  @Test
  void retryAfterRefusesABadDelayInsideTheHandler() {
    Hourglass h = live();
    Queue<String> q = h.queue("bad", String.class);
    q.enqueue(q.spec("x").id("x").maxAttempts(1).build());
    List<Throwable> thrown = new CopyOnWriteArrayList<>();
    q.worker(
        job -> {
          try {
            job.retryAfter(Duration.ofSeconds(-1), "negative");
          } catch (InvalidArgumentException e) {
            thrown.add(e);
            throw e;
          }
        });
    await().atMost(LIVENESS).until(() -> q.stats().dead() == 1);
    assertThat(thrown).hasSize(1);
    assertThat(q.get("x").orElseThrow().lastError().orElseThrow()).contains("delay");
  }
}
