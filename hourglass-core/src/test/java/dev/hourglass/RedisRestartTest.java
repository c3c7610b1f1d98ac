package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.hourglass.embedded.RedisServer;
import dev.hourglass.testing.RedisExtension;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redis goes away under a running producer and a running worker, and comes back with its AOF
 * ({@code appendfsync always}). Every enqueue that returned success must be delivered; calls during
 * the outage fail with {@link RedisUnavailableException} (that they do not hang is {@link
 * ConnectionLossTest}'s); the worker, started once, resumes by itself. Invariant 1 of
 * docs/ARCHITECTURE.md (no loss) across restarts.
 */
class RedisRestartTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.persistent();

  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

  /** The longest a test waits for progress: a liveness bound, never a measurement. */
  private static final Duration LIVENESS = Duration.ofSeconds(30);

  @AfterEach
  void redisRunsAgain() {
    redis.server().start(); // no-op when running; restores the server if a test failed mid-outage
  }

  /**
   * A Redis down when the client's settings check falls due (every 30 s) fails that call and the
   * calls after it, and the client works again once Redis is back: no call waits forever on a check
   * that could not even be sent.
   */
  @Test
  void anOutageAcrossTheSettingsCheckFailsCallsAndNeverHangsThem() throws Exception {
    MovableClock clock = new MovableClock();
    try (Hourglass h =
        Hourglass.builder()
            .redisUri(redis.uri())
            .backgroundPromoter(false)
            .commandTimeout(COMMAND_TIMEOUT)
            .clock(clock)
            .build()) {
      Queue<String> q = h.queue("outage", String.class);
      q.enqueue(q.spec("x").id("x").build());
      redis.server().stop();
      clock.advance(Duration.ofSeconds(31)); // the next call checks the settings version first
      // Until the client has seen its connections drop, a call may fail on the dead connection;
      // after that, each call must try to connect, and fail its future, not throw or hang.
      await()
          .atMost(LIVENESS)
          .until(
              () -> {
                Throwable failure =
                    catchThrowable(
                        () -> q.getAsync("x").get(LIVENESS.toSeconds(), TimeUnit.SECONDS));
                assertThat(failure)
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(RedisUnavailableException.class);
                return failure.getCause().getMessage().startsWith("cannot connect to Redis");
              });
      for (int call = 0; call < 3; call++) {
        assertThatThrownBy(() -> q.getAsync("x").get(LIVENESS.toSeconds(), TimeUnit.SECONDS))
            .isInstanceOf(ExecutionException.class)
            .hasCauseInstanceOf(RedisUnavailableException.class);
        assertThatThrownBy(() -> q.get("x")).isInstanceOf(RedisUnavailableException.class);
      }
      redis.server().start();
      await()
          .atMost(LIVENESS)
          .ignoreExceptionsInstanceOf(RedisUnavailableException.class)
          .until(() -> q.getAsync("x").get(LIVENESS.toSeconds(), TimeUnit.SECONDS).isPresent());
    }
  }

  @Test
  void gracefulStopAndStartLosesNoAcknowledgedEnqueue() throws Exception {
    survivesOutage(RedisServer::stop);
  }

  @Test
  void sigkillAndStartLosesNoAcknowledgedEnqueue() throws Exception {
    survivesOutage(RedisServer::kill);
  }

  private void survivesOutage(Consumer<RedisServer> outage) throws Exception {
    RedisServer server = redis.server();
    String queueName = "restart";
    try (Hourglass hourglass =
        Hourglass.builder()
            .redisUri(server.uri())
            .commandTimeout(COMMAND_TIMEOUT)
            .connectTimeout(Duration.ofSeconds(1))
            .build()) {
      Queue<byte[]> queue = hourglass.queue(queueName);
      Set<String> handled = ConcurrentHashMap.newKeySet();
      Worker worker =
          hourglass.worker(
              queueName,
              job -> handled.add(job.id()),
              WorkerOptions.builder().concurrency(4).visibility(Duration.ofSeconds(3)).build());
      Producer producer = new Producer(queue);
      Thread producerThread = new Thread(producer, "restart-producer");
      producerThread.start();
      try {
        await("producer warms up").atMost(LIVENESS).until(() -> producer.succeeded.size() >= 150);
        await("worker handles jobs").atMost(LIVENESS).until(() -> handled.size() >= 50);

        outage.accept(server);
        int failuresBefore = producer.failures.get();
        await("producer calls fail while Redis is down")
            .atMost(LIVENESS)
            .until(() -> producer.failures.get() >= failuresBefore + 5);
        assertThat(server.isRunning()).isFalse();

        server.start();
        int succeededAtRestart = producer.succeeded.size();
        await("producer resumes after restart")
            .atMost(LIVENESS)
            .until(() -> producer.succeeded.size() >= succeededAtRestart + 150);
      } finally {
        producer.stop = true;
        producerThread.join(10_000);
      }
      Set<String> succeeded = Set.copyOf(producer.succeeded);
      await("every acknowledged enqueue is handled by the same, never restarted worker")
          .atMost(LIVENESS)
          .until(() -> handled.containsAll(succeeded));
      assertThat(handled).containsAll(succeeded);

      Set<String> possible = new HashSet<>(succeeded);
      possible.addAll(producer.unknown);
      possible.addAll(
          producer.unexpectedIds); // not RedisUnavailableException: flagged below, outcome unknown
      assertThat(handled)
          .as(
              "a job whose enqueue failed with outcomeUnknown=false was never sent, so it cannot exist")
          .isSubsetOf(possible);

      await("queue drains: nothing stuck inflight or ready")
          .atMost(LIVENESS)
          .until(() -> queue.stats().total() == 0);
      for (String id : possible) {
        if (succeeded.contains(id)) {
          continue;
        }
        assertThat(queue.get(id))
            .as("unknown-outcome job %s is either handled or absent", id)
            .isEmpty();
      }
      assertThat(worker.inFlight()).isZero();
      System.out.printf(
          "restart summary: succeeded %d, failed %d (unknown outcome %d), handled %d%n",
          succeeded.size(), producer.failures.get(), producer.unknown.size(), handled.size());
      worker.close(Duration.ofSeconds(5));
      assertThat(producer.unexpected)
          .as(
              "a lost connection must surface as RedisUnavailableException, never as another exception type")
          .isEmpty();
    }
  }

  /** Enqueues jobs with explicit ids, some due now, some with 0-500 ms delay, until stopped. */
  private static final class Producer implements Runnable {
    final Queue<byte[]> queue;
    final Set<String> succeeded = ConcurrentHashMap.newKeySet();
    final Set<String> unknown = ConcurrentHashMap.newKeySet();
    final ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
    final Set<String> unexpectedIds = ConcurrentHashMap.newKeySet();
    final AtomicInteger failures = new AtomicInteger();
    volatile boolean stop;
    private int seq;

    Producer(Queue<byte[]> queue) {
      this.queue = queue;
    }

    @Override
    public void run() {
      while (!stop) {
        String id = "job-" + seq++;
        JobSpec.Builder spec = JobSpec.builder().id(id).payload(id);
        if (seq % 2 == 0) {
          spec.delay(Duration.ofMillis(ThreadLocalRandom.current().nextInt(501)));
        }
        try {
          queue.enqueue(spec.build());
          succeeded.add(id);
        } catch (RedisUnavailableException e) {
          failures.incrementAndGet();
          if (e.outcomeUnknown()) {
            unknown.add(id);
          }
        } catch (Throwable t) {
          System.out.println("unexpected failure of enqueue " + id + ":");
          t.printStackTrace(System.out);
          unexpected.add(t);
          unexpectedIds.add(id);
        }
        LockSupport.parkNanos(
            Duration.ofMillis(3).toNanos()); // pace: a few hundred jobs per second
      }
    }
  }
}
