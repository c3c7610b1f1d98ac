package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.hourglass.Delivery;
import dev.hourglass.Hourglass;
import dev.hourglass.JobInfo;
import dev.hourglass.JobSpec;
import dev.hourglass.JobState;
import dev.hourglass.Nack;
import dev.hourglass.Queue;
import dev.hourglass.server.FuzzRequests.RawReq;
import dev.hourglass.server.FuzzRequests.Req;
import dev.hourglass.server.RawHttp.Answer;
import dev.hourglass.server.auth.Role;
import dev.hourglass.server.auth.TokenRule;
import dev.hourglass.testing.RedisExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Throws random and malformed requests at every route of the API (and raw bytes at the HTTP parser
 * under it) and checks, for every answer:
 *
 * <ul>
 *   <li>no 5xx: the server runs on a healthy Redis, so nothing a client sends is a server fault
 *       (except 505 to a raw request line naming an HTTP version the server does not speak, which
 *       is the right answer);
 *   <li>every non-2xx answer is {@code application/json} with exactly {@code {"error": {"code":
 *       <snake_case>, "message": <text>}}}, Jetty's own answers to unparseable requests included;
 *   <li>a rejected request (4xx) changed nothing in Redis.
 * </ul>
 *
 * <p>The last one compares a digest of every key before and after the request ({@link RedisState}),
 * read only when Redis's count of writes moved ({@link WriteWatch}): a digest of the whole
 * database, which grows as the fuzz runs, on every request made this class take over ten minutes.
 * The server also writes in the background, which would make that comparison flaky: its promoters
 * renew their lock and due time in the partition {@code meta} hashes, and may move jobs (due ones
 * to ready, lapsed leases back) once any claim has started them; long-poll watchers pop and push
 * back hint tokens on the {@code wake} lists. So the digest leaves out {@code meta} and {@code
 * wake} keys, and before every request the test holds every partition's promoter lock itself, which
 * leaves the server's promoters idle, and the dashboard's sampler is stopped (its stats reads catch
 * up with the clock too). That lets claims succeed and lease jobs (the claim route is fuzzed like
 * any other) while only requests write. No push worker ever runs: the generators never produce a
 * valid http delivery. 10,000 requests in all.
 *
 * <p>The server runs with auth on (admin, producer, consumer and a queue-limited admin token), so
 * the 401 and 403 paths are fuzzed too; most requests carry the admin token to get past them. A
 * seed queue holds a delayed, a ready, an inflight and two dead jobs, so that paths reach existing
 * queues and jobs; when requests have used them up (cancelled, claimed, requeued, purged), the next
 * try seeds a fresh queue.
 *
 * <p>The properties are QuickTheories theories run from JUnit Jupiter tests ({@link SeededTheory}):
 * each one prints its seed when it starts, and a failure prints the smallest falsifying request,
 * the seed and the command that replays it ({@code -DQT_SEED=<seed>}). One Redis and one server
 * serve the whole class, as one user's requests would; Redis is not flushed between the properties.
 */
class FuzzTest {
  private static final List<TokenRule> TOKENS =
      List.of(
          TokenRule.of("admin", FuzzRequests.ADMIN, Role.ADMIN, List.of("*")),
          TokenRule.of("producer", FuzzRequests.PRODUCER, Role.PRODUCER, List.of("*")),
          TokenRule.of("consumer", FuzzRequests.CONSUMER, Role.CONSUMER, List.of("*")),
          TokenRule.of("narrow", FuzzRequests.NARROW, Role.ADMIN, List.of("other-*")));

  private static final Pattern SNAKE_CASE = Pattern.compile("[a-z][a-z0-9]*(_[a-z0-9]+)*");
  private static final ObjectReader STRICT_JSON =
      new ObjectMapper().reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);

  /**
   * Margin on each property's number of examples, so that at least the round number of requests
   * goes out: QuickTheories counts in its examples the few it skips as repeats of one already run
   * (its first three are the plainest, the lowest and the highest choices, which often coincide).
   */
  private static final int REPEATS_SKIPPED = 10;

  /** Requests per property: 10,000 in all on every build, most through the API generators. */
  private static final int API_REQUESTS = 7200;

  private static final int DEAD_LIST_REQUESTS = 1000;
  private static final int RAW_REQUESTS = 2000;

  @RegisterExtension static RedisExtension redis = RedisExtension.standalone().withoutFlush();

  private static TestServer server;
  private static HttpClient http;
  private static Seeds seeds;
  private static WriteWatch writes;

  @BeforeAll
  static void start() {
    server = TestServer.start(redis.uri(), TOKENS);
    // The dashboard's sampler reads every queue's stats every 10 s, and a stats read catches up
    // with the clock: a lease that a fuzzed claim took with a short visibility lapses, and the
    // sample moves the job back, a write that would land inside some later request's window (found
    // when the fuzz grew to 10,000 requests and so outlived several samples).
    server.server().series().close();
    http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    seeds = new Seeds(server.server().hourglass());
    writes = new WriteWatch(redis.server());
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void apiRequestsAreAnsweredInTheErrorShapeAndRejectedOnesWriteNothing(TestInfo test) {
    Coverage coverage = new Coverage();
    SeededTheory.forTest(test, API_REQUESTS + REPEATS_SKIPPED)
        .forAll(FuzzRequests.apiRequests())
        .checkAssert(
            request -> {
              WriteWatch.Mark before = prepare();
              Answer answer = send(request);
              check(request.toString(), request.method(), answer, before, false);
              coverage.count(request.route(), answer);
            });
    coverage.print(test);
  }

  @Test
  void deadListQueriesAreAnsweredInTheErrorShapeAndWriteNothing(TestInfo test) {
    Coverage coverage = new Coverage();
    SeededTheory.forTest(test, DEAD_LIST_REQUESTS + REPEATS_SKIPPED)
        .forAll(FuzzRequests.deadListRequests())
        .checkAssert(
            request -> {
              WriteWatch.Mark before = prepare();
              Answer answer = send(request);
              check(request.toString(), request.method(), answer, before, false);
              coverage.count(request.route(), answer);
              if (answer.status() == 200) {
                assertThat(changesSince(before))
                    .as("a dead list read changed Redis: %s", request)
                    .isEmpty();
              }
            });
    coverage.print(test);
  }

  @Test
  void rawRequestsAreAnsweredInTheErrorShapeAndRejectedOnesWriteNothing(TestInfo test) {
    Coverage coverage = new Coverage();
    SeededTheory.forTest(test, RAW_REQUESTS + REPEATS_SKIPPED)
        .forAll(FuzzRequests.rawRequests())
        .checkAssert(
            request -> {
              WriteWatch.Mark before = prepare();
              Answer answer = sendRaw(request);
              check(request.toString(), request.method(), answer, before, true);
              coverage.count("raw", answer);
            });
    coverage.print(test);
  }

  /**
   * How far the requests got, printed after each property: a fuzz that never gets past 401 tests
   * little. Counts every request sent, those of shrinking included.
   */
  private static final class Coverage {
    private final Map<String, Map<String, Integer>> counts = new TreeMap<>();
    private int requests;

    void count(String route, Answer answer) {
      requests++;
      add("status", Integer.toString(answer.status()));
      add("route and status class", route + " " + answer.status() / 100 + "xx");
      if (answer.status() >= 300 && answer.body().length > 0) {
        try {
          add(
              "error code",
              STRICT_JSON.readTree(answer.body()).path("error").path("code").asText());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }

    private void add(String label, String value) {
      counts.computeIfAbsent(label, k -> new TreeMap<>()).merge(value, 1, Integer::sum);
    }

    void print(TestInfo test) {
      StringBuilder out = new StringBuilder();
      out.append(test.getTestMethod().orElseThrow().getName())
          .append(": ")
          .append(requests)
          .append(" requests");
      counts.forEach(
          (label, values) ->
              out.append("\n  ")
                  .append(label)
                  .append(": ")
                  .append(
                      values.entrySet().stream()
                          .map(e -> e.getKey() + " " + e.getValue())
                          .collect(Collectors.joining(", "))));
      System.out.println(out);
    }
  }

  /**
   * Found while fuzzing raw requests: a body that ends before its Content-Length, or chunked
   * framing that breaks off, was answered 500 {@code internal} and logged as a server fault.
   */
  @Test
  void aBodyThatBreaksOffIsA400() {
    String enqueue = "POST /v1/queues/" + FuzzRequests.SEED_QUEUE + "/jobs HTTP/1.1\r\n";
    String headers = "Host: localhost\r\nAuthorization: Bearer " + FuzzRequests.ADMIN + "\r\n";
    for (String rest :
        List.of(
            "Content-Length: 40\r\n\r\n{\"payload\":1",
            "Transfer-Encoding: chunked\r\n\r\nzz\r\n",
            "Transfer-Encoding: chunked\r\n\r\n5\r\n{\"pa")) {
      RawReq request =
          new RawReq("POST", (enqueue + headers + rest).getBytes(StandardCharsets.ISO_8859_1), "");
      WriteWatch.Mark before = prepare();
      Answer answer = sendRaw(request);
      check(request.toString(), "POST", answer, before, true);
      assertThat(answer.status()).as("%s", request).isEqualTo(400);
    }
  }

  /**
   * Found by the raw-request property: Jetty's own error answers to methods other than GET, POST
   * and HEAD had an empty body and no Content-Type.
   */
  @Test
  void jettysOwnErrorAnswersAreJsonForEveryMethod() {
    for (String method : List.of("PUT", "DELETE", "OPTIONS", "PATCH", "FROB")) {
      RawReq request =
          new RawReq(
              method,
              (method + " * HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n")
                  .getBytes(StandardCharsets.ISO_8859_1),
              "");
      WriteWatch.Mark before = prepare();
      check(request.toString(), method, sendRaw(request), before, true);
    }
  }

  /** Seeds if needed, idles the promoters, and reads the state to compare with. */
  private static WriteWatch.Mark prepare() {
    seeds.ensure();
    RedisState.holdPromoters(redis.server());
    return writes.mark();
  }

  /**
   * The three properties. {@code raw}: the request line may name an HTTP version the server does
   * not speak, and 505 is the right answer to that (not a fault of the server).
   */
  private static void check(
      String request, String method, Answer answer, WriteWatch.Mark before, boolean raw) {
    String what = request + "\n  answered " + answer.status() + ": " + preview(answer.text());
    if (raw && answer.status() == 505) {
      assertThat(answer.contentType()).as(what).startsWith("application/json");
    } else {
      assertThat(answer.status()).as("a 5xx for %s", what).isLessThan(500);
    }
    boolean success = answer.status() >= 200 && answer.status() < 300;
    if (!success) {
      assertThat(answer.contentType())
          .as("Content-Type of %s", what)
          .isNotNull()
          .startsWith("application/json");
      if (!"HEAD".equalsIgnoreCase(method)) {
        assertErrorShape(what, answer.body());
      }
    }
    if (answer.status() >= 400 && answer.status() < 500) {
      assertThat(changesSince(before))
          .as("Redis keys changed by a rejected request: %s", what)
          .isEmpty();
    }
  }

  /**
   * The keys changed since {@code before}, those of retired seed queues aside. A claim given up
   * because its client left (every raw request half-closes) may have leased the seed's ready job in
   * the core all the same; the core hands it back asynchronously, possibly after the answer, and
   * the next {@link Seeds#ensure} retires that seed, since its job was away when it looked. The
   * hand-back then lands in a later request's window, on the retired seed's keys, where no request
   * reaches: paths name the current seed only.
   */
  private static List<String> changesSince(WriteWatch.Mark before) {
    return writes.changesSince(before).stream().filter(c -> !seeds.isRetired(c)).toList();
  }

  private static void assertErrorShape(String what, byte[] body) {
    JsonNode root;
    try {
      root = STRICT_JSON.readTree(body);
    } catch (IOException e) {
      throw new AssertionError("the error body is not JSON: " + what, e);
    }
    assertThat(root).as("error body of %s", what).isNotNull();
    assertThat(root.isObject() && root.size() == 1 && root.has("error"))
        .as("the body is not exactly {\"error\": ...}: %s", what)
        .isTrue();
    JsonNode error = root.get("error");
    assertThat(error.isObject() && error.size() == 2)
        .as("error is not exactly {code, message}: %s", what)
        .isTrue();
    assertThat(error.path("code").isTextual() && error.path("message").isTextual())
        .as("code and message are not strings: %s", what)
        .isTrue();
    assertThat(error.get("code").asText()).as("code of %s", what).matches(SNAKE_CASE);
    assertThat(error.get("message").asText()).as("message of %s", what).isNotBlank();
  }

  private static String preview(String s) {
    return FuzzRequests.preview(s, 300);
  }

  // ---- sending ----

  /**
   * Sends a request. Jetty refuses some paths itself before any handler runs (not UTF-8, ambiguous
   * encodings): it answers 400 and gives up the body, and when the body is still coming the
   * connection's reset can overtake the 400, so the client reads nothing. A request with a body
   * that gets no answer is therefore sent again without its body; only when that is Jetty's own 400
   * for the path ({@code JsonErrorHandler}) is the missing answer put down to it, and the 400
   * checked as the answer. Any other missing answer fails.
   */
  private static Answer send(Req r) {
    String path =
        r.path()
            .replace(FuzzRequests.SEED_QUEUE, seeds.queue())
            .replace(FuzzRequests.REAL_CURSOR, seeds.cursor());
    try {
      return exchange(r, path, r.body());
    } catch (IOException e) {
      if (r.body().length > 0) {
        try {
          Answer bare = exchange(r, path, new byte[0]);
          if (bare.status() == 400 && bare.text().contains("\"malformed request: ")) {
            return bare;
          }
        } catch (IOException again) {
          e.addSuppressed(again);
        }
      }
      throw new UncheckedIOException("no answer to " + r, e);
    }
  }

  private static Answer exchange(Req r, String path, byte[] body) throws IOException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(server.baseUrl() + path)).timeout(ANSWER_TIMEOUT);
    for (String[] h : r.headers()) {
      b.header(h[0], h[1]);
    }
    b.method(r.method(), HttpRequest.BodyPublishers.ofByteArray(body));
    try {
      HttpResponse<byte[]> resp = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
      return new Answer(
          resp.statusCode(), resp.headers().firstValue("Content-Type").orElse(null), resp.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /**
   * Writes the bytes, half-closes, and reads the first response on the connection. As in {@link
   * #send}, Jetty answers a request it refuses before any handler runs with 400 and closes without
   * reading the body, so writing a large body can fail (broken pipe) or the reset can overtake the
   * 400: such a request is sent again with its head only, and only Jetty's own 400 for it is taken
   * as the answer. Any other missing answer fails.
   */
  private static Answer sendRaw(RawReq r) {
    String text =
        new String(r.bytes(), StandardCharsets.ISO_8859_1)
            .replace(FuzzRequests.SEED_QUEUE, seeds.queue());
    try {
      return exchangeRaw(r, text.getBytes(StandardCharsets.ISO_8859_1));
    } catch (IOException e) {
      int headEnd = text.indexOf("\r\n\r\n");
      if (headEnd >= 0 && headEnd + 4 < text.length()) {
        try {
          Answer bare =
              exchangeRaw(r, text.substring(0, headEnd + 4).getBytes(StandardCharsets.ISO_8859_1));
          if (bare.status() == 400 && bare.text().contains("\"malformed request: ")) {
            return bare;
          }
        } catch (IOException again) {
          e.addSuppressed(again);
        }
      }
      throw new UncheckedIOException("no answer to " + r, e);
    }
  }

  private static Answer exchangeRaw(RawReq r, byte[] bytes) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", server.server().port()), 5000);
      socket.setSoTimeout((int) ANSWER_TIMEOUT.toMillis());
      socket.getOutputStream().write(bytes);
      socket.getOutputStream().flush();
      socket.shutdownOutput();
      return RawHttp.read(socket.getInputStream(), "HEAD".equals(r.method()));
    }
  }

  // ---- seed state ----

  /**
   * A queue holding one job in each state, for paths to reach existing jobs. {@link #ensure} makes
   * a fresh one when the fuzz has used the current one up.
   */
  private static final class Seeds {
    private final Hourglass hourglass;
    private final Map<String, JobState> expected =
        Map.of(
            "d-1", JobState.DELAYED,
            "r-1", JobState.READY,
            "i-1", JobState.INFLIGHT,
            "x-1", JobState.DEAD,
            "x-2", JobState.DEAD);
    private static final Pattern SEED_KEY = Pattern.compile("\\{seed-(\\d+)\\.");
    private int generation;
    private String queue;

    Seeds(Hourglass hourglass) {
      this.hourglass = hourglass;
    }

    String queue() {
      return queue;
    }

    /** Whether this text names a key of a seed queue that {@link #ensure} replaced. */
    boolean isRetired(String text) {
      Matcher m = SEED_KEY.matcher(text);
      return m.find() && Integer.parseInt(m.group(1)) < generation;
    }

    /** A cursor the server gave out for the seed queue's dead list, or a stale one. */
    String cursor() {
      return hourglass.queue(queue).dead().list(null, 1).next().orElse("MDoxOng");
    }

    void ensure() {
      if (queue != null && intact()) {
        return;
      }
      queue = "seed-" + ++generation;
      Queue<byte[]> q = hourglass.queue(queue);
      q.enqueue(dead("x-1"));
      q.enqueue(dead("x-2"));
      for (Delivery<byte[]> d : q.claim(10, Duration.ofHours(1))) {
        q.nack(d.id(), d.receipt(), Nack.kill("seeded dead"));
      }
      q.enqueue(JobSpec.builder().id("i-1").payload("{\"seed\":\"inflight\"}").build());
      assertThat(q.claim(1, Duration.ofDays(1))).hasSize(1);
      q.enqueue(JobSpec.builder().id("r-1").payload("{\"seed\":\"ready\"}").build());
      q.enqueue(
          JobSpec.builder()
              .id("d-1")
              .payload("{\"seed\":\"delayed\"}")
              .delay(Duration.ofDays(1))
              .build());
      assertThat(intact()).as("seeded %s", queue).isTrue();
    }

    private static JobSpec dead(String id) {
      return JobSpec.builder().id(id).payload("{\"seed\":\"dead\"}").maxAttempts(1).build();
    }

    private boolean intact() {
      Queue<byte[]> q = hourglass.queue(queue);
      for (Map.Entry<String, JobState> e : expected.entrySet()) {
        Optional<JobInfo<byte[]>> job = q.get(e.getKey());
        if (job.isEmpty() || job.get().state() != e.getValue()) {
          return false;
        }
      }
      return true;
    }
  }
}
