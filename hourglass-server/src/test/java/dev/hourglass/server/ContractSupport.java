package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hourglass.embedded.RedisServer;
import dev.hourglass.server.auth.Role;
import dev.hourglass.server.auth.TokenRule;
import dev.hourglass.testing.RedisExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Assertions and request helpers shared by the HTTP contract tests ({@code Contract*Test}): every
 * helper checks what API.md promises (status, JSON shape, error shape) so the tests read as the
 * contract.
 */
final class ContractSupport {
  static final ObjectMapper JSON = new ObjectMapper();

  /** Field names of every job as GET returns it (API.md), besides the optional lastError. */
  static final Set<String> JOB_FIELDS =
      Set.of("id", "queue", "state", "runAt", "attempts", "maxAttempts", "createdAt", "payload");

  /** Field names of every claimed job (API.md). */
  static final Set<String> DELIVERY_FIELDS =
      Set.of("id", "payload", "attempt", "receipt", "leaseUntil");

  /** Slack for comparing times Redis computed with times this JVM read around the request. */
  static final long CLOCK_SLACK_MS = 50;

  /** The start of a partition's key: prefix and partition tag (Keys.partitionTag), as a regex. */
  private static final String PARTITION_KEY = "[^:]+:\\{[^}]+\\.\\d+(~\\d+)?\\}:";

  /**
   * A partition's meta hash, e.g. {@code hg:{orders.0}:meta} or {@code hg:{orders.1~3}:meta} (tags
   * of Keys.partitionTag).
   */
  private static final Pattern PARTITION_META = Pattern.compile(PARTITION_KEY + "meta");

  /** Fields of a partition's meta hash that the promoter writes on its own (promote.lua). */
  private static final Set<String> PROMOTER_FIELDS =
      Set.of("po", "pu", "lo", "lu", "wm", "due", "ret", "sig");

  /**
   * Where a delayed job waits: the promoter moves it from its time slot ({@code slots}, {@code
   * slot:<start>}) to {@code near} on its own as its due time comes closer.
   */
  private static final Pattern DELAYED_INDEX =
      Pattern.compile(PARTITION_KEY + "(near|slots|slot:\\d+)");

  /** A connection's id in a line of CLIENT LIST. */
  private static final Pattern CLIENT_ID = Pattern.compile("(?:^|\\s)id=(\\d+)\\s");

  /** Tokens of {@link #adminAndViewer}. */
  static final String ADMIN_TOKEN = "admin-token-0123456789";

  static final String VIEWER_TOKEN = "viewer-token-0123456789";

  private ContractSupport() {}

  /**
   * A server with auth on: {@link #ADMIN_TOKEN} (admin, every queue) and {@link #VIEWER_TOKEN}
   * (viewer, on the queues matching {@code viewerQueues}).
   */
  static TestServer adminAndViewer(String redisUri, String viewerQueues) {
    return TestServer.startQuickStop(
        redisUri,
        List.of(
            TokenRule.of("ops", ADMIN_TOKEN, Role.ADMIN, List.of("*")),
            TokenRule.of("wall", VIEWER_TOKEN, Role.VIEWER, List.of(viewerQueues))));
  }

  /** JSON text written with single quotes for readability: {@code j("{'a':1}")}. */
  static String j(String singleQuoted) {
    return singleQuoted.replace('\'', '"');
  }

  static Set<String> fieldNames(JsonNode node) {
    Set<String> names = new TreeSet<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** Asserts the status and a JSON body, and returns the body. */
  static JsonNode assertJson(TestServer.Response r, int status) {
    assertThat(r.status()).as("status of an answer with body %s", r.body()).isEqualTo(status);
    assertThat(r.raw().headers().firstValue("Content-Type").orElse(""))
        .as("Content-Type of %s", r.body())
        .startsWith("application/json");
    return r.json();
  }

  /** Asserts 204 with no body. */
  static void assertNoContent(TestServer.Response r) {
    assertThat(r.status()).as("status of an answer with body %s", r.body()).isEqualTo(204);
    assertThat(r.body()).isEmpty();
  }

  /**
   * Asserts an error answer: the status, and exactly {@code {"error": {"code", "message"}}} with
   * this code and a non-blank message. Returns the message.
   */
  static String assertError(TestServer.Response r, int status, String code) {
    JsonNode body = assertJson(r, status);
    assertThat(fieldNames(body)).as("error body %s", r.body()).containsExactly("error");
    JsonNode error = body.get("error");
    assertThat(fieldNames(error)).as("error body %s", r.body()).containsExactly("code", "message");
    assertThat(error.get("code").isTextual()).as("code is a string in %s", r.body()).isTrue();
    assertThat(error.get("code").asText()).as("error code in %s", r.body()).isEqualTo(code);
    assertThat(error.get("message").isTextual()).as("message is a string in %s", r.body()).isTrue();
    assertThat(error.get("message").asText()).as("message in %s", r.body()).isNotBlank();
    return error.get("message").asText();
  }

  /** Asserts 400 {@code invalid_field} whose message starts with the field's name. */
  static void assertInvalidField(TestServer.Response r, String field) {
    String message = assertError(r, 400, "invalid_field");
    assertThat(message).as("the message names the field").startsWith(field);
  }

  /** Asserts an error entry of a batch result: exactly {@code {"error": {"code", "message"}}}. */
  static String assertErrorEntry(JsonNode entry, String code) {
    assertThat(fieldNames(entry)).as("batch entry %s", entry).containsExactly("error");
    assertThat(fieldNames(entry.get("error")))
        .as("batch entry %s", entry)
        .containsExactly("code", "message");
    assertThat(entry.get("error").get("code").asText()).as("batch entry %s", entry).isEqualTo(code);
    return entry.get("error").get("message").asText();
  }

  /**
   * Asserts that {@code body} holds {@code "payload":<raw>} with the payload's exact text, as sent
   * by the producer, followed by the end of its value. Compared as text, not as parsed JSON, so
   * {@code 2.50} stays {@code 2.50} and whitespace inside the payload is kept.
   */
  static void assertRawPayload(String body, String raw) {
    String needle = "\"payload\":" + raw;
    int at = body.indexOf(needle);
    assertThat(at).as("%s holds the payload byte for byte: %s", body, needle).isNotNegative();
    char after = body.charAt(at + needle.length());
    assertThat(after).as("the payload's text ends after %s in %s", needle, body).isIn(',', '}');
  }

  /** The id of every element of a JSON array of jobs. */
  static List<String> ids(JsonNode jobs) {
    List<String> ids = new ArrayList<>();
    jobs.forEach(job -> ids.add(job.get("id").asText()));
    return ids;
  }

  /** The {@code name} of every element of a JSON array of queues. */
  static List<String> namesOf(JsonNode queues) {
    List<String> names = new ArrayList<>();
    queues.forEach(q -> names.add(q.get("name").asText()));
    return names;
  }

  static JsonNode parse(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Every key in Redis with a digest of its value, one per line, to show that a request wrote
   * nothing. Left out is what the server's promoter (running since the first claim on a queue)
   * changes on its own: its bookkeeping in a partition's meta hash (lock owner and deadline,
   * watermark, next-due hint, copy of the retention) and the index of delayed jobs, which it moves
   * from time slots to {@code near}. The job records themselves (with their due times), the ready,
   * inflight, lease and dead sets, the counters and the settings are all compared.
   */
  static String digest(RedisExtension redis) {
    RedisServer r = redis.server();
    String reply = r.command("KEYS", "*");
    List<String> keys =
        reply == null || reply.isEmpty()
            ? List.of()
            : Arrays.stream(reply.split("\n")).sorted().toList();
    StringBuilder out = new StringBuilder();
    for (String key : keys) {
      if (DELAYED_INDEX.matcher(key).matches()) {
        continue;
      }
      out.append(key).append(" = ");
      if (PARTITION_META.matcher(key).matches()) {
        String[] pairs = r.command("HGETALL", key).split("\n");
        Map<String, String> fields = new TreeMap<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
          if (!PROMOTER_FIELDS.contains(pairs[i])) {
            fields.put(pairs[i], pairs[i + 1]);
          }
        }
        out.append(fields);
      } else {
        out.append(r.command("DEBUG", "DIGEST-VALUE", key));
      }
      out.append('\n');
    }
    return out.toString();
  }

  /**
   * Ids of the Redis connections whose latest command is a BLPOP: the long-poll watchers, each of
   * which blocks on a partition's wake list while a claim on the queue waits (and is still listed
   * so until it blocks again or closes). A claim has begun to wait once a connection that was not
   * there before it shows up here.
   */
  static Set<String> longPollWatchers(RedisExtension redis) {
    Set<String> ids = new TreeSet<>();
    for (String client : redis.server().command("CLIENT", "LIST").split("\n")) {
      Matcher id = CLIENT_ID.matcher(client);
      if (client.contains(" cmd=blpop ") && id.find()) {
        ids.add(id.group(1));
      }
    }
    return ids;
  }

  private static final Pattern CLAIMS_WAITING =
      Pattern.compile("(?m)^hourglass_claims_waiting(?:\\{[^}]*\\})? (\\S+)$");

  /** The server's {@code hourglass_claims_waiting} gauge, from {@code GET /metrics}. */
  static long claimsWaiting(TestServer s) {
    return claimsWaiting(s, null);
  }

  /** {@link #claimsWaiting(TestServer)} read with this token (null for none). */
  static long claimsWaiting(TestServer s, String token) {
    Matcher m = CLAIMS_WAITING.matcher(s.call("GET", "/metrics", null, token).body());
    assertThat(m.find()).as("hourglass_claims_waiting in /metrics").isTrue();
    return (long) Double.parseDouble(m.group(1));
  }

  /** Writes a claim on a raw socket (no token), leaving the socket open for its answer. */
  static void sendClaim(Socket socket, String queue, String body) throws IOException {
    sendClaim(socket, queue, body, null, null);
  }

  /**
   * Writes a claim on a raw socket, with {@code token} (null for none) and an {@code
   * X-Forwarded-For} header (null for none).
   */
  static void sendClaim(Socket socket, String queue, String body, String token, String forwardedFor)
      throws IOException {
    List<String> headers = new ArrayList<>(List.of("Content-Type: application/json"));
    if (token != null) {
      headers.add("Authorization: Bearer " + token);
    }
    if (forwardedFor != null) {
      headers.add("X-Forwarded-For: " + forwardedFor);
    }
    RawHttp.send(
        socket,
        "POST",
        "/v1/queues/" + queue + "/claim",
        headers,
        body.getBytes(StandardCharsets.US_ASCII));
  }

  /** Enqueues and asserts 201; returns the answer's body. */
  static JsonNode enqueue(TestServer s, String queue, String body) {
    return assertJson(s.post("/v1/queues/" + queue + "/jobs", body), 201);
  }

  /** GET of one job, asserting 200. */
  static JsonNode getJob(TestServer s, String queue, String id) {
    return assertJson(s.get("/v1/queues/" + queue + "/jobs/" + id), 200);
  }

  /** Claims with this body, asserting 200; returns the {@code jobs} array. */
  static JsonNode claim(TestServer s, String queue, String body) {
    JsonNode answer = assertJson(s.post("/v1/queues/" + queue + "/claim", body), 200);
    assertThat(fieldNames(answer)).containsExactly("jobs");
    assertThat(answer.get("jobs").isArray()).isTrue();
    return answer.get("jobs");
  }

  /** Claims exactly one job (it must be ready) and returns it. */
  static JsonNode claimOne(TestServer s, String queue) {
    JsonNode jobs = claim(s, queue, "{\"max\":1}");
    assertThat(jobs).as("one ready job to claim in %s", queue).hasSize(1);
    return jobs.get(0);
  }

  static String receiptBody(JsonNode delivery) {
    return "{\"receipt\":\"" + delivery.get("receipt").asText() + "\"}";
  }

  /** Queue view of GET /v1/queues/{queue}, asserting 200. */
  static JsonNode queueView(TestServer s, String queue) {
    return assertJson(s.get("/v1/queues/" + queue), 200);
  }
}
