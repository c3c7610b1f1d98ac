package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.hourglass.embedded.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The client and queue features tools build on: {@link Hourglass#queueExists}, {@link
 * Hourglass#defaultQueueSettings()}, queue attributes, {@link QueueStats#delivered()} and the
 * {@link dev.hourglass.spi.ScriptListener}.
 */
class QueueSettingsAttributesTest extends HourglassTestBase {

  private static long dbSize() {
    return Long.parseLong(redis.server().command("DBSIZE"));
  }

  // ---- queueExists ----

  @Test
  void queueExistsReadsOnlyAndTurnsTrueOnFirstUse() {
    Hourglass h = manual();
    long before = dbSize();

    assertThat(h.queueExists("never-used")).isFalse();
    assertThat(h.queueExists("never-used")).isFalse();
    assertThat(dbSize()).isEqualTo(before);
    assertThat(h.queueNames()).doesNotContain("never-used");

    h.queue("never-used").enqueue(job("a"));
    assertThat(h.queueExists("never-used")).isTrue();
    assertThat(manual().queueExists("never-used")).as("seen by another client").isTrue();
    assertThat(h.queueExists("other")).isFalse();
  }

  @Test
  void queueExistsRefusesABadName() {
    Hourglass h = manual();
    assertThatThrownBy(() -> h.queueExists("bad name!"))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> h.queueExists("")).isInstanceOf(InvalidArgumentException.class);
  }

  @Test
  void queueExistsIsTrueAfterConfigureQueueWithoutAnyJob() {
    Hourglass h = manual();
    h.configureQueue("configured", QueueSettings.builder().maxAttempts(3).build());
    assertThat(h.queueExists("configured")).isTrue();
  }

  // ---- defaultQueueSettings ----

  @Test
  void defaultQueueSettingsAreTheBuildersAndAQueueCreatedByUseGetsThem() {
    assertThat(manual().defaultQueueSettings()).isEqualTo(QueueSettings.defaults());

    QueueSettings mine =
        QueueSettings.builder()
            .maxAttempts(7)
            .visibility(Duration.ofSeconds(90))
            .attribute("owner", "team-a")
            .build();
    Hourglass h = client(b -> b.backgroundPromoter(false).defaultQueueSettings(mine));
    assertThat(h.defaultQueueSettings()).isEqualTo(mine);

    h.queue("by-use").enqueue(job("x"));
    assertThat(manual().queue("by-use").settings()).isEqualTo(mine);
  }

  // ---- attributes ----

  @Test
  void attributesRoundTripThroughRedisAndAFreshClient() {
    QueueSettings wanted =
        QueueSettings.builder()
            .maxAttempts(4)
            .attribute("push.url", "http://example.test/hook?a=1&b=2")
            .attribute("push.timeoutMs", "2500")
            .attribute("note", "ünïcødé and spaces, = signs; 日本")
            .attribute("empty", "")
            .build();
    Queue<byte[]> q = manual().configureQueue("attrs", wanted);

    assertThat(q.settings().attributes())
        .containsExactlyEntriesOf(
            new TreeMap<>(
                Map.of(
                    "empty",
                    "",
                    "note",
                    "ünïcødé and spaces, = signs; 日本",
                    "push.timeoutMs",
                    "2500",
                    "push.url",
                    "http://example.test/hook?a=1&b=2")))
        .isEqualTo(wanted.attributes());
    assertThat(q.settings()).isEqualTo(wanted);

    Hourglass fresh = manual();
    assertThat(fresh.queue("attrs").settings()).isEqualTo(wanted);
    assertThat(fresh.queue("attrs").settings().attributes().keySet())
        .containsExactly("empty", "note", "push.timeoutMs", "push.url");
  }

  @Test
  void settingsReadsRedisFreshSoAnotherClientsChangeShowsAtOnce() {
    Queue<byte[]> mine = manual().configureQueue("fresh", QueueSettings.builder().build());
    assertThat(mine.settings().attributes()).isEmpty();

    manual()
        .configureQueue(
            "fresh", QueueSettings.builder().maxAttempts(9).attribute("k", "v1").build());
    QueueSettings seen = mine.settings();
    assertThat(seen.maxAttempts()).isEqualTo(9);
    assertThat(seen.attributes()).containsExactly(Map.entry("k", "v1"));
  }

  @Test
  void anUpdateReplacesTheAttributesItNamesAndKeepsTheOthers() {
    Hourglass h = manual();
    h.configureQueue(
        "upd", QueueSettings.builder().attribute("a", "1").attribute("b", "2").build());
    Queue<byte[]> q =
        h.configureQueue(
            "upd", QueueSettings.builder().attribute("b", "20").attribute("c", "30").build());
    assertThat(q.settings().attributes())
        .containsExactly(Map.entry("a", "1"), Map.entry("b", "20"), Map.entry("c", "30"));
  }

  @Test
  void attributesSurviveToBuilder() {
    QueueSettings s = QueueSettings.builder().attribute("x", "1").build();
    assertThat(s.toBuilder().build()).isEqualTo(s);
    assertThat(s.toBuilder().attribute("y", "2").build().attributes())
        .containsExactly(Map.entry("x", "1"), Map.entry("y", "2"));
    assertThatThrownBy(() -> s.attributes().put("z", "3"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void badAttributeKeysAndValuesAreRefusedNamingAttributes() {
    for (String key : new String[] {null, "", "has space", "a/b", "x".repeat(65), "ключ"}) {
      assertThatThrownBy(() -> QueueSettings.builder().attribute(key, "v"))
          .as("key %s", key)
          .isInstanceOf(InvalidArgumentException.class)
          .satisfies(
              e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo("attributes"));
    }
    assertThatThrownBy(() -> QueueSettings.builder().attributes(Map.of("bad key", "v")))
        .isInstanceOf(InvalidArgumentException.class)
        .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo("attributes"));
    assertThatThrownBy(() -> QueueSettings.builder().attribute("k", null))
        .isInstanceOf(InvalidArgumentException.class)
        .satisfies(
            e -> assertThat(((InvalidArgumentException) e).field()).startsWith("attributes"));
    assertThatThrownBy(() -> QueueSettings.builder().attribute("k", "v".repeat(64 * 1024 + 1)))
        .isInstanceOf(InvalidArgumentException.class)
        .satisfies(
            e -> assertThat(((InvalidArgumentException) e).field()).startsWith("attributes"));
    // The limits themselves are accepted.
    QueueSettings.builder().attribute("k".repeat(64), "v".repeat(64 * 1024)).build();
  }

  // ---- delivered ----

  @Test
  void deliveredCountsEveryDelivery() {
    Queue<byte[]> q = manual().queue("delivered");
    q.enqueue(job("d"));
    assertThat(q.stats().counters().delivered()).isZero();

    Delivery<byte[]> first = q.claim(1, null).get(0);
    assertThat(q.stats().counters().delivered()).isEqualTo(1);
    q.nack(first.id(), first.receipt(), Nack.retryAfter(Duration.ZERO, "again"));
    assertThat(q.stats().counters().delivered()).isEqualTo(1);

    Delivery<byte[]> second = q.claim(1, null).get(0);
    assertThat(second.attempt()).isEqualTo(2);
    QueueStats s = q.stats();
    assertThat(s.counters().delivered()).isEqualTo(2);
    assertThat(s.counters().retried()).isEqualTo(1);

    q.ack(second.id(), second.receipt());
    assertThat(q.stats().counters().delivered()).isEqualTo(2);
    assertThat(q.stats().counters().acked()).isEqualTo(1);
    assertThat(q.claim(1, null)).isEmpty();
    assertThat(q.stats().counters().delivered()).as("an empty claim delivers nothing").isEqualTo(2);
  }

  @Test
  void deliveredSumsOverPartitions() {
    Queue<byte[]> q =
        manual().configureQueue("delivered-p", QueueSettings.builder().partitions(4).build());
    for (int i = 0; i < 12; i++) {
      q.enqueue(job("j" + i));
    }
    int claimed = 0;
    while (claimed < 12) {
      List<Delivery<byte[]>> got = q.claim(5, null);
      assertThat(got).isNotEmpty();
      claimed += got.size();
    }
    assertThat(q.stats().counters().delivered()).isEqualTo(12);
  }

  // ---- scriptListener ----

  record Call(String script, Duration elapsed, Throwable failure) {}

  @Test
  void scriptListenerSeesEveryScriptCallByNameWithItsDuration() {
    List<Call> calls = new CopyOnWriteArrayList<>();
    Hourglass h =
        client(
            b ->
                b.backgroundPromoter(false)
                    .scriptListener((s, d, f) -> calls.add(new Call(s, d, f))));
    Queue<byte[]> q = h.queue("listened");
    q.enqueue(job("a"));
    Delivery<byte[]> d = q.claim(1, null).get(0);
    q.ack(d.id(), d.receipt());
    q.stats();

    await()
        .atMost(RedisProbe.LIVENESS)
        .until(
            () ->
                calls.stream()
                    .map(Call::script)
                    .toList()
                    .containsAll(List.of("queue_upsert", "enqueue", "claim", "ack", "stats")));
    assertThat(calls).allSatisfy(c -> assertThat(c.failure()).isNull());
    assertThat(calls).allSatisfy(c -> assertThat(c.elapsed()).isPositive());
    assertThat(calls.stream().filter(c -> c.script().equals("enqueue")).count()).isEqualTo(1);
    assertThat(calls.stream().filter(c -> c.script().equals("claim")).count()).isEqualTo(1);
    assertThat(calls.stream().filter(c -> c.script().equals("ack")).count()).isEqualTo(1);
  }

  @Test
  void aThrowingListenerDoesNotBreakTheCall() {
    Hourglass h =
        client(
            b ->
                b.backgroundPromoter(false)
                    .scriptListener(
                        (s, d, f) -> {
                          throw new IllegalStateException("listener bug");
                        }));
    Queue<byte[]> q = h.queue("bad-listener");
    q.enqueue(job("a"));
    assertThat(q.claim(1, null)).hasSize(1);
  }

  @Test
  void scriptListenerSeesTheFailureWhenRedisIsDown() {
    List<Call> calls = new CopyOnWriteArrayList<>();
    Hourglass h =
        client(
            b ->
                b.backgroundPromoter(false)
                    .commandTimeout(Duration.ofSeconds(1))
                    .connectTimeout(Duration.ofSeconds(1))
                    .scriptListener((s, d, f) -> calls.add(new Call(s, d, f))));
    Queue<byte[]> q = h.queue("down");
    q.enqueue(job("before"));
    RedisServer server = redis.server();
    server.stop();
    try {
      assertThatThrownBy(() -> q.enqueue(job("during")))
          .isInstanceOf(RedisUnavailableException.class);
      await()
          .atMost(RedisProbe.LIVENESS)
          .until(
              () ->
                  calls.stream()
                      .anyMatch(c -> c.script().equals("enqueue") && c.failure() != null));
      Call failed =
          calls.stream()
              .filter(c -> c.script().equals("enqueue") && c.failure() != null)
              .findFirst()
              .orElseThrow();
      assertThat(failed.elapsed()).isPositive();
    } finally {
      server.start();
    }
  }
}
