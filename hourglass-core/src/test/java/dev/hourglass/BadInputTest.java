package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.function.Supplier;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Bad input fails fast with a typed exception naming the field, and writes nothing to Redis. */
class BadInputTest extends HourglassTestBase {
  Hourglass h;
  Queue<byte[]> q;

  @BeforeEach
  void setUp() {
    h = client(b -> b.backgroundPromoter(false).maxPayloadBytes(1024));
    q = h.queue("bad");
    q.enqueue(
        job("existing")); // the queue exists; every refused call below must leave exactly this
  }

  void refused(String field, ThrowingCallable call) {
    String before = redis.server().command("DBSIZE");
    assertThatThrownBy(call)
        .isInstanceOf(InvalidArgumentException.class)
        .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo(field))
        .hasMessageStartingWith(field + ":");
    assertThat(redis.server().command("DBSIZE")).isEqualTo(before);
    assertThat(q.stats().total()).isEqualTo(1);
  }

  @Test
  void jobSpecFields() {
    refused("payload", () -> JobSpec.builder().build());
    refused("payload", () -> JobSpec.builder().payload((String) null).build());
    refused("id", () -> spec("has space").build());
    refused("id", () -> spec("x".repeat(129)).build());
    refused("id", () -> spec("").build());
    refused("id", () -> spec("{tag}").build());
    refused("delay", () -> spec("a").delay(Duration.ofMillis(-1)).build());
    refused(
        "delay",
        () -> spec("a").delay(Duration.ofSeconds(1)).runAt(java.time.Instant.now()).build());
    refused("maxAttempts", () -> spec("a").maxAttempts(0).build());
    refused("maxAttempts", () -> spec("a").maxAttempts(1001).build());
    refused("visibility", () -> spec("a").visibility(Duration.ZERO).build());
    refused("visibility", () -> spec("a").visibility(Duration.ofDays(60)).build());
    refused("ttl", () -> spec("a").ttl(Duration.ofMillis(-5)).build());
  }

  @Test
  void backoffFields() {
    refused("backoff.delay", () -> Backoff.fixed(Duration.ofMillis(-1)));
    refused("backoff.base", () -> Backoff.exponential(Duration.ZERO, Duration.ofSeconds(1)));
    refused("backoff.max", () -> Backoff.exponential(Duration.ofSeconds(2), Duration.ofSeconds(1)));
    refused(
        "backoff.jitter",
        () -> Backoff.exponential(Duration.ofSeconds(1), Duration.ofSeconds(2), 1.5));
    refused("backoff.delays", () -> Backoff.schedule());
    refused(
        "backoff.delays[1]", () -> Backoff.schedule(Duration.ofSeconds(1), Duration.ofDays(60)));
    refused("backoff", () -> Backoff.parseSchedule("15s 3x"));
    refused("backoff", () -> Backoff.parseSchedule(""));
  }

  @Test
  void payloadOverTheLimit() {
    assertThatThrownBy(() -> q.enqueue(JobSpec.of(new byte[1025])))
        .isInstanceOf(PayloadTooLargeException.class)
        .hasMessageContaining("1025")
        .hasMessageContaining("1024");
    assertThat(q.stats().total()).isEqualTo(1);
    assertThat(q.enqueue(JobSpec.of(new byte[1024])).created()).isTrue();
  }

  @Test
  void namesAndArgumentsOfQueueCalls() {
    refused("queue", () -> h.queue("bad name"));
    refused("queue", () -> h.queue("x".repeat(101)));
    refused("queue", () -> h.queue("."));
    refused("queue", () -> h.queue("..", String.class));
    refused("queue", () -> h.queue(null));
    refused("queue", () -> h.queue("a{b}"));
    refused("id", () -> q.get("bad id"));
    refused("id", () -> q.cancel(null));
    refused("receipt", () -> q.ack("existing", ""));
    refused("receipt", () -> q.nack("existing", null, Nack.retry("e")));
    refused("delay", () -> q.reschedule("existing", Duration.ofSeconds(-1)));
    refused("runAt", () -> q.reschedule("existing", (java.time.Instant) null));
    refused("runAt", () -> q.reschedule("existing", JobSpec.MIN_RUN_AT.minusMillis(1)));
    refused("runAt", () -> q.reschedule("existing", JobSpec.MAX_RUN_AT.plusMillis(1)));
    refused("max", () -> q.claim(0, null));
    refused("max", () -> q.claim(1001, null));
    refused("visibility", () -> q.claim(1, Duration.ZERO));
    refused("visibility", () -> q.extend("existing", "r.1", Duration.ofMillis(-1)));
    refused("delay", () -> Nack.retryAfter(Duration.ofSeconds(-1), "e"));
    refused("spec", () -> q.enqueue(null));
    refused(
        "specs[1].payload",
        () -> q.enqueueAll(java.util.List.of(job("ok"), JobSpec.of(new byte[2000]))));
  }

  @Test
  void queueSettingsAndWorkerOptions() {
    refused("partitions", () -> QueueSettings.builder().partitions(0).build());
    refused("pools", () -> QueueSettings.builder().pools(2000).build());
    refused("slotWidth", () -> QueueSettings.builder().slotWidth(Duration.ofMillis(5)).build());
    refused("maxAttempts", () -> QueueSettings.builder().maxAttempts(0).build());
    refused("deadMaxAge", () -> QueueSettings.builder().deadMaxAge(Duration.ofSeconds(-1)).build());
    refused("concurrency", () -> WorkerOptions.builder().concurrency(0).build());
    refused("maxClaim", () -> WorkerOptions.builder().maxClaim(0).build());
    refused("prefetch", () -> WorkerOptions.builder().prefetch(-1).build());
    refused("idleWait", () -> WorkerOptions.builder().idleWait(Duration.ofMinutes(5)).build());
    refused("handler", () -> h.worker("bad", null));
  }

  @Test
  void builderSettings() {
    Supplier<HourglassBuilder> b = () -> Hourglass.builder().redisUri(redis.uri());
    refused("redisUri", () -> Hourglass.builder().redisUri("").build());
    refused("redisUri", () -> Hourglass.builder().redisUri("http://nope").build());
    refused("prefix", () -> b.get().prefix("a:b").build());
    refused("commandTimeout", () -> b.get().commandTimeout(Duration.ZERO).build());
    refused("maxPayloadBytes", () -> b.get().maxPayloadBytes(0).build());
  }

  @Test
  void unreachableRedisFailsTypedAndDoesNotHang() {
    // Liveness only (twenty connect timeouts): how fast it fails is no test's business.
    assertTimeoutPreemptively(
        Duration.ofSeconds(10),
        () ->
            assertThatThrownBy(
                    () ->
                        Hourglass.builder()
                            .redisUri("redis://127.0.0.1:1")
                            .connectTimeout(Duration.ofMillis(500))
                            .build())
                .isInstanceOf(RedisUnavailableException.class)
                .satisfies(
                    e -> assertThat(((RedisUnavailableException) e).outcomeUnknown()).isFalse()));
  }

  @Test
  void otherLayoutVersionIsRefused() {
    redis.server().command("SET", "other:{meta}:layout", "99");
    assertThatThrownBy(() -> client(b -> b.prefix("other")))
        .isInstanceOf(LayoutVersionException.class)
        .hasMessageContaining("99");
  }
}
