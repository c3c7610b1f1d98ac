package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A master dies under a stream of enqueues and claims, and nobody has to notice: producers enqueue
 * jobs due now or within half a second, a worker claims and acks them, and {@code failover} kills
 * the master, waits for its replacement and restores the replica count (as an orchestrator would).
 * Producers retry a failed enqueue with the same id (a duplicate counts as acknowledged).
 *
 * <p>Checked: every error a producer saw is a {@link RedisUnavailableException} (typed, retryable);
 * after the failover the same client, worker and promoters go on by themselves: the next {@value
 * #AFTER} enqueues succeed at the first attempt, every acknowledged job is delivered (the client
 * uses replica-acknowledged writes, so none may be lost) and the queue drains to nothing: no job
 * left leased to nobody, none due and never delivered.
 */
final class FailoverScenario {
  private static final int BEFORE = 200;
  private static final int AFTER = 200;
  private static final int PRODUCERS = 4;
  private static final Duration LIVENESS = Duration.ofMinutes(2);

  private final Queue<byte[]> queue;
  private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
  private final Map<String, AtomicInteger> delivered = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean stop = new AtomicBoolean();

  private FailoverScenario(Queue<byte[]> queue) {
    this.queue = queue;
  }

  /**
   * The client the scenario expects: replica-acknowledged writes (one replica, 1 s) and timeouts
   * short enough that a dead master shows within seconds.
   */
  static Hourglass client(String redisUri) {
    return Hourglass.builder()
        .redisUri(redisUri)
        .commandTimeout(Duration.ofSeconds(2))
        .connectTimeout(Duration.ofSeconds(1))
        .replicaAcks(1, Duration.ofSeconds(1))
        .build();
  }

  /**
   * Runs the scenario on {@code queue} (of a {@link #client}) and returns a line of figures for the
   * test's output.
   */
  static String run(Queue<byte[]> queue, Runnable failover) throws Exception {
    return new FailoverScenario(queue).go(failover);
  }

  private String go(Runnable failover) throws Exception {
    Worker worker =
        queue.worker(
            job -> delivered.computeIfAbsent(job.id(), k -> new AtomicInteger()).incrementAndGet());
    List<Thread> producers = new ArrayList<>();
    for (int p = 0; p < PRODUCERS; p++) {
      int producer = p;
      Thread t = new Thread(() -> produce(producer), "producer-" + p);
      t.start();
      producers.add(t);
    }
    await("enqueues before the failover")
        .atMost(LIVENESS)
        .until(() -> acknowledged.size() >= BEFORE);
    long killed = System.nanoTime();
    failover.run();
    long restored = System.nanoTime();
    int errorsDuringFailover = errors.size();
    stop.set(true);
    for (Thread t : producers) {
      t.join(LIVENESS.toMillis());
      assertThat(t.isAlive()).as("%s ends", t.getName()).isFalse();
    }
    assertThat(errors)
        .as("every failure a producer saw is typed and retryable")
        .allMatch(e -> e instanceof RedisUnavailableException);

    // Once a call succeeds again, the following ones succeed at their first attempt.
    await("an enqueue succeeds after the failover")
        .atMost(LIVENESS)
        .ignoreExceptionsInstanceOf(RedisUnavailableException.class)
        .until(() -> enqueue("after-first") != null);
    for (int i = 0; i < AFTER; i++) {
      String id = "after-" + i;
      assertThatCode(() -> enqueue(id))
          .as("enqueue %s after the failover", id)
          .doesNotThrowAnyException();
    }

    await("every acknowledged job is delivered")
        .atMost(LIVENESS)
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(() -> assertThat(delivered.keySet()).containsAll(acknowledged));
    await("the queue drains: nothing delayed, ready, leased or dead is left")
        .atMost(LIVENESS)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> queue.stats().total() == 0);
    worker.close();
    return String.format(
        "acknowledged=%d delivered=%d duplicates=%d producer_errors=%d failover_ms=%d",
        acknowledged.size(),
        delivered.size(),
        delivered.values().stream().filter(c -> c.get() > 1).count(),
        errorsDuringFailover,
        TimeUnit.NANOSECONDS.toMillis(restored - killed));
  }

  /** Enqueues until stopped, retrying each id until it is acknowledged. */
  private void produce(int producer) {
    for (long seq = 0; !stop.get(); seq++) {
      String id = "p" + producer + "-" + seq;
      while (!stop.get()) {
        try {
          enqueue(id);
          break;
        } catch (RuntimeException e) {
          errors.add(e);
          // Pacing, not synchronisation: do not spin while Redis is away.
          LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
      }
    }
  }

  /** Enqueues {@code id}; a duplicate counts as acknowledged (an earlier attempt wrote it). */
  private String enqueue(String id) {
    Duration delay = Duration.ofMillis(ThreadLocalRandom.current().nextInt(-200, 500));
    try {
      queue.enqueue(
          JobSpec.builder()
              .id(id)
              .payload("x")
              .delay(delay.isNegative() ? Duration.ZERO : delay)
              .visibility(Duration.ofSeconds(3))
              .build());
    } catch (DuplicateJobException e) {
      // acknowledged by an attempt whose answer was lost
    }
    acknowledged.add(id);
    return id;
  }
}
