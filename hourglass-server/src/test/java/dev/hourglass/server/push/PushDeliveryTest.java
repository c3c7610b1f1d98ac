package dev.hourglass.server.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hourglass.Hourglass;
import dev.hourglass.QueueStats;
import dev.hourglass.server.TestServer;
import dev.hourglass.server.push.PushReceiver.Outcome;
import dev.hourglass.testing.RedisExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Push delivery end to end: a real server POSTing to a local endpoint that answers 2xx, fails,
 * hangs past the timeout or drops the connection, and a server restart in the middle of deliveries.
 * The promise checked is the one push makes: every job ends acked or dead, none is lost, and a job
 * answered 2xx is never POSTed again.
 */
class PushDeliveryTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(120);

  /**
   * 300 jobs through an endpoint that, per POST at random (seeded, from the job id and attempt so a
   * rerun makes the same choices), answers 2xx (40 %), 500 (25 %), hangs 1.5 s past the 1 s timeout
   * (15 %) or closes the connection (20 %). With 4 attempts about one job in eight uses them all up
   * and dies, so both ends are exercised. The timeout is 1 s rather than less so that a 2xx,
   * answered at once, always arrives in time: one arriving after the timeout would be redelivered
   * legitimately and look like a duplicate here.
   */
  @Test
  void everyJobEndsAckedOnceOrDeadUnderRandomFailures() {
    long seed = 20_261_122L;
    try (PushReceiver receiver = new PushReceiver().hang(Duration.ofMillis(1500));
        TestServer server = TestServer.start(redis.uri())) {
      String url = receiver.serve("/hook", (id, attempt) -> randomOutcome(seed, id, attempt));
      configurePush(server, "mixed", url, 1000, 16, 4);
      List<String> ids = ids("job-", 300);
      enqueue(server, "mixed", ids);

      awaitSettled(server, "mixed");

      Set<String> dead = deadIds(server, "mixed");
      List<String> answeredTwice =
          ids.stream().filter(id -> receiver.okAnswers(id) > 1).collect(Collectors.toList());
      Set<String> acked =
          ids.stream().filter(id -> receiver.okAnswers(id) == 1).collect(Collectors.toSet());
      assertThat(answeredTwice).as("jobs answered 2xx more than once").isEmpty();
      assertThat(receiver.postsAfterOk()).as("POSTs after a 2xx for the same job").isEmpty();
      assertThat(acked).as("jobs both acked and dead").doesNotContainAnyElementsOf(dead);
      assertThat(acked.size() + dead.size()).as("acked + dead").isEqualTo(ids.size());
      assertThat(dead).as("dead jobs").isNotEmpty();
      for (String id : ids) {
        assertThat(acked.contains(id) || dead.contains(id)).as("job %s lost", id).isTrue();
        int status = server.get("/v1/queues/mixed/jobs/" + id).status();
        assertThat(status).as("GET of job %s", id).isEqualTo(acked.contains(id) ? 404 : 200);
      }
      JsonNode counters = server.get("/v1/queues/mixed").json().get("counters");
      assertThat(counters.get("acked").asLong()).isEqualTo(acked.size());
      assertThat(counters.get("dead").asLong()).isEqualTo(dead.size());
      for (Outcome o : List.of(Outcome.OK, Outcome.FAIL, Outcome.HANG, Outcome.CLOSE)) {
        assertThat(receiver.outcomes(o)).as("POSTs answered %s", o).isPositive();
      }
    }
  }

  /**
   * A queue whose endpoint never answers holds its own workers only: the jobs of another push queue
   * on the same server are all delivered meanwhile, while the stuck queue's POSTs still hang (their
   * timeout, 300 s, is far beyond the generous wait for the healthy queue).
   */
  @Test
  void aHangingEndpointDoesNotDelayAnotherQueue() {
    try (PushReceiver receiver = new PushReceiver();
        TestServer server = TestServer.start(redis.uri())) {
      try {
        String stuckUrl = receiver.serve("/stuck", (id, attempt) -> Outcome.HANG_UNTIL_RELEASED);
        String okUrl = receiver.serve("/ok", (id, attempt) -> Outcome.OK);
        configurePush(server, "stuck", stuckUrl, 300_000, 2, 5);
        configurePush(server, "healthy", okUrl, 5_000, 4, 5);
        enqueue(server, "stuck", ids("stuck-", 20));
        await()
            .atMost(Duration.ofSeconds(10))
            .untilAsserted(() -> assertThat(receiver.waiting()).isEqualTo(2));

        List<String> healthy = ids("healthy-", 50);
        enqueue(server, "healthy", healthy);

        await()
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () ->
                    assertThat(healthy)
                        .allSatisfy(id -> assertThat(receiver.okAnswers(id)).isEqualTo(1)));
        await()
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(() -> assertThat(live(stats(server, "healthy"))).isZero());
        QueueStats stuck = stats(server, "stuck");
        assertThat(stuck.inflight()).as("stuck jobs in flight").isEqualTo(2);
        assertThat(stuck.ready()).as("stuck jobs waiting").isEqualTo(18);
        assertThat(receiver.waiting()).as("POSTs still hanging").isEqualTo(2);
      } finally {
        receiver.releaseHangs(); // lets the server's graceful close finish the two POSTs
      }
    }
  }

  /**
   * Closing the server in the middle of deliveries settles the POSTs in flight (close is graceful),
   * and a new server on the same Redis delivers the rest: every job gets exactly one 2xx, none is
   * POSTed again after it.
   */
  @Test
  void deliveriesSurviveAServerRestart() {
    try (PushReceiver receiver = new PushReceiver().okDelay(Duration.ofMillis(100))) {
      String url = receiver.serve("/hook", (id, attempt) -> Outcome.OK);
      List<String> ids = ids("restart-", 80);
      TestServer first = TestServer.start(redis.uri());
      try {
        configurePush(first, "restart", url, 5_000, 4, 20);
        enqueue(first, "restart", ids);
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> receiver.totalOkAnswers() >= ids.size() / 4);
      } finally {
        first.close();
      }
      int deliveredBeforeRestart = receiver.totalOkAnswers();
      try (Hourglass client = Hourglass.builder().redisUri(redis.uri()).build()) {
        QueueStats between = client.queue("restart").stats();
        assertThat(between.inflight()).as("jobs left in flight by a graceful close").isZero();
        assertThat(between.counters().acked())
            .as("acks settled by close")
            .isEqualTo(deliveredBeforeRestart);
      }
      assertThat(deliveredBeforeRestart).as("delivered before the restart").isLessThan(ids.size());

      try (TestServer second = TestServer.start(redis.uri())) {
        awaitSettled(second, "restart");
        assertThat(receiver.postsAfterOk()).as("POSTs after a 2xx for the same job").isEmpty();
        assertThat(ids)
            .allSatisfy(id -> assertThat(receiver.okAnswers(id)).as("2xx for %s", id).isEqualTo(1));
        assertThat(deadIds(second, "restart")).isEmpty();
        assertThat(stats(second, "restart").counters().acked()).isEqualTo(ids.size());
      }
    }
  }

  private static Outcome randomOutcome(long seed, String id, int attempt) {
    int roll = new SplittableRandom(seed ^ (id.hashCode() * 1_000_003L + attempt)).nextInt(100);
    if (roll < 40) {
      return Outcome.OK;
    }
    if (roll < 65) {
      return Outcome.FAIL;
    }
    return roll < 80 ? Outcome.HANG : Outcome.CLOSE;
  }

  private static List<String> ids(String prefix, int n) {
    return IntStream.range(0, n)
        .mapToObj(i -> prefix + String.format("%03d", i))
        .collect(Collectors.toList());
  }

  private static void configurePush(
      TestServer server, String queue, String url, long timeoutMs, int concurrency, int attempts) {
    String body =
        "{\"defaults\":{\"maxAttempts\":"
            + attempts
            + ",\"backoff\":{\"type\":\"fixed\",\"delayMs\":50}},"
            + "\"delivery\":{\"type\":\"http\",\"url\":\""
            + url
            + "\",\"timeoutMs\":"
            + timeoutMs
            + ",\"concurrency\":"
            + concurrency
            + "}}";
    TestServer.Response r = server.call("PUT", "/v1/queues/" + queue, body);
    assertThat(r.status()).as(r.body()).isIn(200, 201);
  }

  /** Enqueues through the batch endpoint, 100 jobs per request. */
  private static void enqueue(TestServer server, String queue, List<String> ids) {
    for (int from = 0; from < ids.size(); from += 100) {
      List<String> jobs = new ArrayList<>();
      for (String id : ids.subList(from, Math.min(ids.size(), from + 100))) {
        jobs.add("{\"id\":\"" + id + "\",\"payload\":{\"job\":\"" + id + "\"}}");
      }
      TestServer.Response r =
          server.post(
              "/v1/queues/" + queue + "/jobs/batch", "{\"jobs\":[" + String.join(",", jobs) + "]}");
      assertThat(r.status()).as(r.body()).isEqualTo(200);
      for (JsonNode result : r.json().get("results")) {
        assertThat(result.has("error")).as("batch result %s", result).isFalse();
      }
    }
  }

  private static QueueStats stats(TestServer server, String queue) {
    return server.server().hourglass().queue(queue).stats();
  }

  private static long live(QueueStats s) {
    return s.ready() + s.delayed() + s.inflight();
  }

  /** Waits until no job of the queue is ready, delayed or in flight, as the API reports it. */
  private static void awaitSettled(TestServer server, String queue) {
    await()
        .atMost(SETTLE_TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              JsonNode q = server.get("/v1/queues/" + queue).json();
              assertThat(
                      q.get("ready").asLong()
                          + q.get("delayed").asLong()
                          + q.get("inflight").asLong())
                  .as("live jobs in %s: %s", queue, q)
                  .isZero();
            });
  }

  private static Set<String> deadIds(TestServer server, String queue) {
    Set<String> ids = new HashSet<>();
    String cursor = null;
    do {
      String path =
          "/v1/queues/" + queue + "/dead?limit=100" + (cursor == null ? "" : "&cursor=" + cursor);
      JsonNode page = server.get(path).json();
      for (JsonNode job : page.get("jobs")) {
        assertThat(ids.add(job.get("id").asText())).as("listed twice: %s", job).isTrue();
      }
      cursor = page.get("next").isNull() ? null : page.get("next").asText();
    } while (cursor != null);
    return ids;
  }
}
