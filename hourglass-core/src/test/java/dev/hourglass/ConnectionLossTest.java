package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.hourglass.embedded.RedisServer;
import dev.hourglass.testing.RedisExtension;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Redis connection goes away (server stopped, or frozen so it accepts but never answers) and
 * comes back. Calls must fail fast with {@link RedisUnavailableException}, never hang past the
 * command timeout, and the same client, worker and promoter must work again afterwards without
 * being rebuilt.
 */
class ConnectionLossTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(1);

  /** Scheduling slack on a busy two-core machine on top of the command timeout. */
  private static final long MARGIN_MS = 1500;

  private Hourglass hourglass;

  @AfterEach
  void cleanUp() throws Exception {
    RedisServer server = redis.server();
    resume(server); // in case a test failed while Redis was frozen
    server.start(); // no-op when running
    if (hourglass != null) {
      hourglass.close();
    }
  }

  private Hourglass connect() {
    hourglass =
        Hourglass.builder()
            .redisUri(redis.uri())
            .commandTimeout(COMMAND_TIMEOUT)
            .connectTimeout(Duration.ofSeconds(1))
            .build();
    return hourglass;
  }

  @Test
  void callsFailFastWhileRedisIsStoppedAndTheSameClientWorksAfterStart() {
    Queue queue = connect().queue("conn");
    queue.enqueue(JobSpec.builder().id("before").payload("x").build());
    RedisServer server = redis.server();

    server.stop();
    try (LettuceWarnings lettuce = new LettuceWarnings()) {
      // Twice: the first round may meet the dead connection, the second must reconnect (and fail)
      // each time.
      for (int round = 0; round < 2; round++) {
        failsFast(
            "enqueue", () -> queue.enqueue(JobSpec.builder().id("during").payload("x").build()));
        failsFast(
            "enqueueIfAbsent",
            () -> queue.enqueueIfAbsent(JobSpec.builder().id("during").payload("x").build()));
        failsFast(
            "enqueueAll",
            () ->
                queue.enqueueAll(List.of(JobSpec.builder().id("during-all").payload("x").build())));
        failsFast("get", () -> queue.get("before"));
        failsFast("stats", queue::stats);
        failsFast("claim", () -> queue.claim(10, null));
        failsFast("cancel", () -> queue.cancel("before"));
        failsFast(
            "ack",
            () -> {
              queue.ack("before", "some-receipt.1");
              return null;
            });
        failsFast("queueNames", hourglass::queueNames);
      }
      // The lost connection is closed once, not again on every call that finds Redis still down.
      assertThat(lettuce.messages()).isEmpty();
    }

    server.start();
    // The same client, not rebuilt.
    EnqueueResult after = queue.enqueue(JobSpec.builder().id("after").payload("y").build());
    assertThat(after.created()).isTrue();
    assertThat(queue.get("after")).get().extracting(JobInfo::state).isEqualTo(JobState.READY);
    assertThat(queue.get("during"))
        .as("the enqueue that failed while Redis was down wrote nothing")
        .isEmpty();
    assertThat(queue.stats().ready()).isEqualTo(1);
    List<Delivery> claimed = queue.claim(10, null);
    assertThat(claimed).extracting(Delivery::id).containsExactly("after");
    queue.ack("after", claimed.get(0).receipt());
    assertThat(queue.get("after")).isEmpty();
  }

  @Test
  void callsToAFrozenRedisTimeOutWithinTheCommandTimeoutAndTheClientRecovers() throws Exception {
    Queue queue = connect().queue("frozen");
    queue.enqueue(JobSpec.builder().id("warm").payload("x").build());
    RedisServer server = redis.server();

    freeze(server); // the socket stays open and accepts bytes; nothing answers
    try {
      RedisUnavailableException e =
          failsFast(
              "enqueue to a frozen Redis",
              () -> queue.enqueue(JobSpec.builder().id("sent").payload("x").build()));
      assertThat(e.outcomeUnknown()).as("the command was sent; nobody knows if it ran").isTrue();
      failsFast("get from a frozen Redis", () -> queue.get("warm"));
      failsFast("stats from a frozen Redis", queue::stats);
    } finally {
      resume(server);
    }

    // The frozen server executes what it had buffered; the same client answers correctly again.
    await("client works again after Redis resumes")
        .atMost(Duration.ofSeconds(10))
        .ignoreExceptionsInstanceOf(RedisUnavailableException.class)
        .until(() -> queue.get("warm").isPresent());
    EnqueueResult next = queue.enqueue(JobSpec.builder().id("next").payload("x").build());
    assertThat(next.created()).isTrue();
    assertThat(queue.get("next")).isPresent();
    // The outcome-unknown enqueue: check with get, as the exception's contract says; either answer
    // is consistent.
    boolean sentExists = queue.get("sent").isPresent();
    assertThat(queue.stats().ready()).isEqualTo(sentExists ? 3 : 2);
  }

  @Test
  void enqueueAsyncReportsAnOutageThroughItsFuture() throws Exception {
    Queue queue = connect().queue("async");
    redis.server().stop();

    AtomicReference<CompletableFuture<EnqueueResult>> future = new AtomicReference<>();
    long t0 = System.nanoTime();
    assertThatCode(
            () -> future.set(queue.enqueueAsync(JobSpec.builder().id("a").payload("x").build())))
        .as(
            "Queue#enqueueAsync: Redis failures arrive through the future; only validation errors are thrown")
        .doesNotThrowAnyException();
    Throwable failure =
        catchThrowable(
            () -> future.get().get(COMMAND_TIMEOUT.toMillis() + MARGIN_MS, TimeUnit.MILLISECONDS));
    assertThat(failure).isInstanceOf(ExecutionException.class);
    assertThat(failure.getCause()).isInstanceOf(RedisUnavailableException.class);
    assertThat(elapsedMs(t0)).isLessThan(COMMAND_TIMEOUT.toMillis() + MARGIN_MS);
  }

  @Test
  void workerAndPromoterRecoverByThemselvesAfterRedisRestarts() throws Exception {
    Queue queue = connect().queue("conn-worker");
    Map<String, Long> deliveredAtNanos = new ConcurrentHashMap<>();
    Worker worker =
        hourglass.worker(
            "conn-worker",
            job -> deliveredAtNanos.putIfAbsent(job.id(), System.nanoTime()),
            WorkerOptions.builder().concurrency(2).build());

    queue.enqueue(
        JobSpec.builder().id("before").payload("x").delay(Duration.ofMillis(200)).build());
    await("worker and promoter run")
        .atMost(Duration.ofSeconds(10))
        .until(() -> deliveredAtNanos.containsKey("before"));

    RedisServer server = redis.server();
    server.stop();
    // Hold the outage long enough that the claim loop and the promoter both fail and back off (up
    // to 2 s / 1 s).
    Thread.sleep(3000);
    server.start();

    long t0 = System.nanoTime();
    queue.enqueue(
        JobSpec.builder().id("after-delayed").payload("x").delay(Duration.ofMillis(300)).build());
    queue.enqueue(JobSpec.builder().id("after-now").payload("x").build());

    await("jobs enqueued after the restart are delivered by the same worker")
        .atMost(Duration.ofSeconds(15))
        .until(
            () ->
                deliveredAtNanos.containsKey("after-delayed")
                    && deliveredAtNanos.containsKey("after-now"));
    long delayedAfterMs = (deliveredAtNanos.get("after-delayed") - t0) / 1_000_000;
    assertThat(delayedAfterMs)
        .as("the delayed job is not delivered early")
        .isGreaterThanOrEqualTo(280);
    assertThat(delayedAfterMs)
        .as("the promoter recovered: the delayed job is not stuck behind long back-offs")
        .isLessThan(5000);
    await("acks went through")
        .atMost(Duration.ofSeconds(10))
        .until(() -> queue.stats().acked() == 2 && queue.stats().total() == 0);
    worker.close(Duration.ofSeconds(5));
  }

  /**
   * Runs a call while Redis is unavailable: it must throw RedisUnavailableException within the
   * timeout.
   */
  private static RedisUnavailableException failsFast(String what, Supplier<?> call) {
    long t0 = System.nanoTime();
    Throwable thrown = catchThrowable(call::get);
    long ms = elapsedMs(t0);
    assertThat(thrown)
        .as("%s threw %s", what, thrown)
        .isInstanceOf(RedisUnavailableException.class);
    assertThat(ms).as(what + " took (ms)").isLessThan(COMMAND_TIMEOUT.toMillis() + MARGIN_MS);
    return (RedisUnavailableException) thrown;
  }

  private static long elapsedMs(long t0) {
    return (System.nanoTime() - t0) / 1_000_000;
  }

  private static void freeze(RedisServer server) throws IOException, InterruptedException {
    signal("-STOP", server.pid());
  }

  private static void resume(RedisServer server) throws IOException, InterruptedException {
    if (server.isRunning()) {
      signal("-CONT", server.pid());
    }
  }

  private static void signal(String signal, long pid) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", signal, Long.toString(pid)).inheritIO().start();
    assertThat(kill.waitFor(5, TimeUnit.SECONDS)).isTrue();
    assertThat(kill.exitValue()).as("kill " + signal + " " + pid).isZero();
  }
}
