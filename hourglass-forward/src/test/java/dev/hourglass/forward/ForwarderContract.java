package dev.hourglass.forward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.Backoff;
import dev.hourglass.EnqueueResult;
import dev.hourglass.Hourglass;
import dev.hourglass.JobInfo;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import dev.hourglass.testing.RedisExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What every broker's forwarder must do; subclasses bring the broker. */
abstract class ForwarderContract {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  /** Clock granularity: Redis and this JVM share the machine's clock, read in whole ms. */
  static final long GRANULARITY_MS = 1;

  Hourglass hourglass;
  String name;

  abstract Target target(String name);

  abstract Sink sink(String name) throws Exception;

  abstract void stopBroker();

  abstract void startBroker();

  @BeforeEach
  void connect() {
    hourglass = Hourglass.builder().redisUri(redis.uri()).build();
    name = "fwd-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterEach
  void disconnect() {
    hourglass.close();
  }

  @Test
  void jobsArriveNeverEarlyAndInDueOrder() throws Exception {
    Queue<byte[]> queue = hourglass.queue(name);
    try (Sink sink = sink(name);
        Forwarder f = Forwarder.start(queue, target(name))) {
      Map<String, Instant> due = enqueue(queue, 200, 3000, new Random(19));
      await().atMost(Duration.ofMinutes(1)).until(() -> ids(sink).size() == 200);
      List<Arrival> arrivals = sink.arrivals();
      assertThat(arrivals).hasSize(200);
      assertThat(arrivals).allSatisfy(a -> assertThat(a.queue()).isEqualTo(name));
      for (Arrival a : arrivals) {
        long lateness = a.arrivedAt() - due.get(a.jobId()).toEpochMilli();
        assertThat(lateness)
            .as("lateness of %s", a.jobId())
            .isGreaterThanOrEqualTo(-GRANULARITY_MS);
      }
      List<Instant> order = arrivals.stream().map(a -> due.get(a.jobId())).toList();
      assertThat(order).isSorted();
      assertThat(arrivals.get(0).body()).startsWith("{\"n\":");
      await().until(() -> queue.stats().total() == 0); // every job acked
    }
  }

  @Test
  void cancelledJobNeverArrivesRescheduledArrivesAtItsNewTime() throws Exception {
    Queue<byte[]> queue = hourglass.queue(name);
    try (Sink sink = sink(name);
        Forwarder f = Forwarder.start(queue, target(name))) {
      String cancelled = queue.enqueue(JobSpec.of("{\"n\":1}", Duration.ofMillis(800))).id();
      String moved = queue.enqueue(JobSpec.of("{\"n\":2}", Duration.ofMillis(500))).id();
      assertThat(queue.cancel(cancelled)).isTrue();
      JobInfo<byte[]> rescheduled = queue.reschedule(moved, Duration.ofMillis(2500));
      String last = queue.enqueue(JobSpec.of("{\"n\":3}", Duration.ofMillis(3000))).id();
      await().atMost(Duration.ofMinutes(1)).until(() -> ids(sink).containsKey(last));
      Map<String, Arrival> got = ids(sink);
      assertThat(got).doesNotContainKey(cancelled);
      assertThat(got.get(moved).arrivedAt())
          .isGreaterThanOrEqualTo(rescheduled.runAt().toEpochMilli() - GRANULARITY_MS);
      assertThat(sink.arrivals()).hasSize(2);
    }
  }

  @Test
  void brokerRestartLosesNothingAndDuplicatesOnlyWhatWasInFlight() throws Exception {
    Queue<byte[]> queue = hourglass.queue(name);
    int jobs = 300;
    try (Sink sink = sink(name);
        Forwarder f = Forwarder.start(queue, target(name))) {
      Map<String, Instant> due = enqueue(queue, jobs, 6000, new Random(7));
      await().atMost(Duration.ofMinutes(1)).until(() -> sink.arrivals().size() >= 60);
      long down = System.currentTimeMillis();
      stopBroker();
      // Jobs falling due while the broker is down wait ready in Hourglass.
      await().atMost(Duration.ofMinutes(1)).until(() -> queue.stats().ready() >= 20);
      startBroker();
      long up = System.currentTimeMillis();
      sink.reconnect();
      await().atMost(Duration.ofMinutes(2)).until(() -> ids(sink).size() == jobs);
      assertThat(ids(sink)).containsOnlyKeys(due.keySet());
      Map<String, Long> copies =
          sink.arrivals().stream()
              .collect(Collectors.groupingBy(Arrival::jobId, Collectors.counting()));
      List<String> duplicated =
          copies.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList();
      System.out.printf(
          "restart: down %d ms, %d jobs, %d duplicated%n", up - down, jobs, duplicated.size());
      assertThat(duplicated.size()).isLessThanOrEqualTo(ForwarderOptions.DEFAULT_CONCURRENCY);
      long margin = target(name).timeout().toMillis();
      for (String id : duplicated) {
        assertThat(due.get(id).toEpochMilli()).isBetween(down - margin, up + margin);
      }
      await().until(() -> queue.stats().total() == 0);
    }
  }

  @Test
  void unreachableBrokerSendsJobsToDeadLettersWithTheCause() {
    Queue<byte[]> queue = hourglass.queue(name);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ids.add(
          queue
              .enqueue(
                  queue
                      .spec(("{\"n\":" + i + "}").getBytes())
                      .maxAttempts(3)
                      .backoff(Backoff.fixed(Duration.ofMillis(50)))
                      .build())
              .id());
    }
    ForwarderOptions fast =
        ForwarderOptions.builder()
            .reconnectBackoff(Duration.ofMillis(20), Duration.ofMillis(100))
            .build();
    try (Forwarder f = Forwarder.start(queue, unreachable(name), fast)) {
      await().atMost(Duration.ofMinutes(1)).until(() -> queue.stats().dead() == 5);
    }
    for (String id : ids) {
      JobInfo<byte[]> job = queue.get(id).orElseThrow();
      assertThat(job.attempts()).isEqualTo(3);
      assertThat(job.lastError())
          .hasValueSatisfying(e -> assertThat(e).matches(unreachableError()));
    }
  }

  /** A target whose broker address has no listener. */
  abstract Target unreachable(String name);

  /** The one-line last error of a job that met {@link #unreachable(String)}. */
  abstract String unreachableError();

  static Map<String, Instant> enqueue(Queue<byte[]> queue, int n, int maxDelayMs, Random random) {
    List<JobSpec> specs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      specs.add(
          queue
              .spec(("{\"n\":" + i + "}").getBytes())
              .delay(Duration.ofMillis(random.nextInt(maxDelayMs)))
              .build());
    }
    Map<String, Instant> due = new HashMap<>();
    for (EnqueueResult r : queue.enqueueAll(specs)) {
      due.put(r.id(), r.runAt());
    }
    return due;
  }

  static Map<String, Arrival> ids(Sink sink) {
    return sink.arrivals().stream()
        .collect(Collectors.toMap(Arrival::jobId, Function.identity(), (a, b) -> a));
  }
}
