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
 * comes back. Calls must fail with {@link RedisUnavailableException}, never hang (each must end
 * within {@link #LIVENESS}, ten command timeouts; how fast is the bench's business), and the same
 * client, worker and promoter must work again afterwards without being rebuilt.
 */
class ConnectionLossTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(1);

  /** The longest a failing call may take before it counts as a hang: ten command timeouts. */
  private static final Duration LIVENESS = COMMAND_TIMEOUT.multipliedBy(10);

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
    Queue<byte[]> queue = connect().queue("conn");
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
    List<Delivery<byte[]>> claimed = queue.claim(10, null);
    assertThat(claimed).extracting(Delivery::id).containsExactly("after");
    queue.ack("after", claimed.get(0).receipt());
    assertThat(queue.get("after")).isEmpty();
  }

  @Test
  void callsToAFrozenRedisTimeOutWithinTheCommandTimeoutAndTheClientRecovers() throws Exception {
    Queue<byte[]> queue = connect().queue("frozen");
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
    Queue<byte[]> queue = connect().queue("async");
    redis.server().stop();

    AtomicReference<CompletableFuture<EnqueueResult>> future = new AtomicReference<>();
    assertThatCode(
            () -> future.set(queue.enqueueAsync(JobSpec.builder().id("a").payload("x").build())))
        .as(
            "Queue#enqueueAsync: Redis failures arrive through the future; only validation errors are thrown")
        .doesNotThrowAnyException();
    Throwable failure =
        catchThrowable(() -> future.get().get(LIVENESS.toMillis(), TimeUnit.MILLISECONDS));
    assertThat(failure)
        .as("the future failed, and did not hang")
        .isInstanceOf(ExecutionException.class);
    assertThat(failure.getCause()).isInstanceOf(RedisUnavailableException.class);
  }

  @Test
  void workerAndPromoterRecoverByThemselvesAfterRedisRestarts() throws Exception {
    Queue<byte[]> queue = connect().queue("conn-worker");
    Map<String, Long> deliveredAtMs = new ConcurrentHashMap<>();
    // The idle wait is longer than any wait below: a delayed job that arrives in time was
    // announced by the promoter, not found by a claim after a timed-out wait.
    Worker worker =
        hourglass.worker(
            "conn-worker",
            job -> deliveredAtMs.putIfAbsent(job.id(), System.currentTimeMillis()),
            WorkerOptions.builder().concurrency(2).idleWait(Duration.ofSeconds(60)).build());

    queue.enqueue(
        JobSpec.builder().id("before").payload("x").delay(Duration.ofMillis(200)).build());
    await("worker and promoter run")
        .atMost(RedisProbe.LIVENESS)
        .until(() -> deliveredAtMs.containsKey("before"));

    RedisServer server = redis.server();
    try (LoggedWarnings claimLoop = new LoggedWarnings("dev.hourglass.internal.ClaimLoop");
        LoggedWarnings promoter = new LoggedWarnings("dev.hourglass.internal.Promoter")) {
      server.stop();
      // The outage lasts until the claim loop has failed and backed off a few times and the
      // promoter has failed too.
      await("claim loop and promoter both fail while Redis is down")
          .atMost(RedisProbe.LIVENESS)
          .until(() -> claimLoop.count("conn-worker") >= 3 && promoter.count("conn-worker") >= 1);
      server.start();
    }

    queue.enqueue(JobSpec.builder().id("after-now").payload("x").build());
    await("a job enqueued after the restart is delivered by the same worker")
        .atMost(RedisProbe.LIVENESS)
        .until(() -> deliveredAtMs.containsKey("after-now"));
    EnqueueResult delayed =
        queue.enqueue(
            JobSpec.builder()
                .id("after-delayed")
                .payload("x")
                .delay(Duration.ofMillis(300))
                .build());
    await("the promoter recovered: it wakes the worker for a delayed job")
        .atMost(RedisProbe.LIVENESS)
        .until(() -> deliveredAtMs.containsKey("after-delayed"));
    // Redis runs on this host: its clock and this JVM's are the same.
    assertThat(deliveredAtMs.get("after-delayed"))
        .as("the delayed job is not delivered early")
        .isGreaterThanOrEqualTo(delayed.runAt().toEpochMilli());
    // Redis restarted empty (no persistence): its counters start again from the restart.
    await("acks went through")
        .atMost(RedisProbe.LIVENESS)
        .until(() -> queue.stats().counters().acked() == 2 && queue.stats().total() == 0);
    worker.close(Duration.ofSeconds(5));
  }

  /**
   * Runs a call while Redis is unavailable: it must throw RedisUnavailableException, and not hang
   * (it ends within {@link #LIVENESS}).
   */
  private static RedisUnavailableException failsFast(String what, Supplier<?> call) {
    CompletableFuture<?> running = CompletableFuture.supplyAsync(call);
    Throwable thrown =
        catchThrowable(() -> running.get(LIVENESS.toMillis(), TimeUnit.MILLISECONDS));
    assertThat(thrown).as("%s ended with %s", what, thrown).isInstanceOf(ExecutionException.class);
    Throwable cause = thrown.getCause();
    assertThat(cause).as("%s threw %s", what, cause).isInstanceOf(RedisUnavailableException.class);
    return (RedisUnavailableException) cause;
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
