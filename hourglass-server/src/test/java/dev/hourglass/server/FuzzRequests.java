package dev.hourglass.server;

import static dev.hourglass.server.Gens.anyLong;
import static dev.hourglass.server.Gens.byteArrays;
import static dev.hourglass.server.Gens.frequency;
import static dev.hourglass.server.Gens.ints;
import static dev.hourglass.server.Gens.just;
import static dev.hourglass.server.Gens.listOf;
import static dev.hourglass.server.Gens.longs;
import static dev.hourglass.server.Gens.oneOf;
import static dev.hourglass.server.Gens.oneOfGens;
import static dev.hourglass.server.Gens.sequence;
import static dev.hourglass.server.Gens.strings;
import static dev.hourglass.server.Gens.weight;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Generators of random and malformed requests for {@link FuzzTest}: well-formed HTTP requests (for
 * the JDK client) aimed at every route of the API with odd paths, headers and bodies, and raw
 * request bytes for what that client refuses to send.
 *
 * <p>Values that would make a request start work outside itself are never generated valid: a {@code
 * delivery} always has an invalid {@code url} (no push worker ever starts), {@code waitMs} is at
 * most 100 when valid (no long poll outlives its request by much), {@code partitions} at most 2
 * when valid (a claim starts one promoter thread per partition), and {@code ttlMs} and {@code
 * visibilityMs} at least an hour when valid: no job expires and no lease lapses during the run, so
 * no clock work falls due that a claim given up by its client (handed back after the answer) could
 * do inside a later request's window.
 *
 * <p>The generators are QuickTheories {@link Gen}s built with {@link Gens}: every choice is drawn
 * from QuickTheories' randomness source, so a seed replays the same requests, and a failing request
 * shrinks towards the first option of each choice (the weights list the plainest first) and the
 * shortest of each string and list.
 */
final class FuzzRequests {
  /** Stands for the current seed queue in a path; replaced when the request is sent. */
  static final String SEED_QUEUE = "@seed@";

  /** Stands for a dead-list cursor the server gave out; replaced when the request is sent. */
  static final String REAL_CURSOR = "@cursor@";

  static final String ADMIN = "fuzz-admin-token-0000000001";
  static final String PRODUCER = "fuzz-producer-token-0000001";
  static final String CONSUMER = "fuzz-consumer-token-0000001";

  /** An admin token limited to queues named {@code other-*}. */
  static final String NARROW = "fuzz-narrow-admin-token-001";

  static final List<String> SEED_IDS = List.of("d-1", "r-1", "i-1", "x-1", "x-2");

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int OVER_PAYLOAD_LIMIT = 1024 * 1024 + 16;

  private FuzzRequests() {}

  /** A request the JDK client can send. */
  record Req(
      String route,
      String method,
      String path,
      List<String[]> headers,
      byte[] body,
      String bodyKind) {
    @Override
    public String toString() {
      String hs =
          headers.stream()
              .map(h -> h[0] + ": " + preview(h[1], 60))
              .collect(Collectors.joining("; "));
      return method
          + " "
          + preview(path, 300)
          + " ["
          + hs
          + "] body "
          + bodyKind
          + " ("
          + body.length
          + " bytes): "
          + preview(new String(body, StandardCharsets.UTF_8), 300);
    }
  }

  /** Bytes written to a socket as they are. */
  record RawReq(String method, byte[] bytes, String description) {
    @Override
    public String toString() {
      return description + " | " + preview(new String(bytes, StandardCharsets.ISO_8859_1), 400);
    }
  }

  static String preview(String s, int max) {
    String flat = s.replace("\r", "\\r").replace("\n", "\\n");
    return flat.length() <= max ? flat : flat.substring(0, max) + "...(" + s.length() + " chars)";
  }

  // ---- routes ----

  /** What a route's body holds when it is well formed. */
  enum BodyShape {
    NONE,
    JOB,
    BATCH,
    SCHEDULE,
    CLAIM,
    SETTLE,
    QUEUE
  }

  enum Route {
    ENQUEUE("POST", "/v1/queues/{q}/jobs", BodyShape.JOB),
    BATCH("POST", "/v1/queues/{q}/jobs/batch", BodyShape.BATCH),
    GET_JOB("GET", "/v1/queues/{q}/jobs/{id}", BodyShape.NONE),
    CANCEL("DELETE", "/v1/queues/{q}/jobs/{id}", BodyShape.NONE),
    RESCHEDULE("PUT", "/v1/queues/{q}/jobs/{id}/schedule", BodyShape.SCHEDULE),
    CLAIM("POST", "/v1/queues/{q}/claim", BodyShape.CLAIM),
    ACK("POST", "/v1/queues/{q}/jobs/{id}/ack", BodyShape.SETTLE),
    NACK("POST", "/v1/queues/{q}/jobs/{id}/nack", BodyShape.SETTLE),
    EXTEND("POST", "/v1/queues/{q}/jobs/{id}/extend", BodyShape.SETTLE),
    DEAD_LIST("GET", "/v1/queues/{q}/dead", BodyShape.NONE),
    DEAD_REQUEUE("POST", "/v1/queues/{q}/dead/{id}/requeue", BodyShape.NONE),
    DEAD_REQUEUE_ALL("POST", "/v1/queues/{q}/dead/requeue", BodyShape.NONE),
    DEAD_PURGE("DELETE", "/v1/queues/{q}/dead", BodyShape.NONE),
    QUEUES("GET", "/v1/queues", BodyShape.NONE),
    QUEUE("GET", "/v1/queues/{q}", BodyShape.NONE),
    PUT_QUEUE("PUT", "/v1/queues/{q}", BodyShape.QUEUE),
    LIVE("GET", "/health/live", BodyShape.NONE),
    READY("GET", "/health/ready", BodyShape.NONE),
    METRICS("GET", "/metrics", BodyShape.NONE),
    DASHBOARD("GET", "/", BodyShape.NONE);

    final String method;
    final String template;
    final BodyShape shape;

    Route(String method, String template, BodyShape shape) {
      this.method = method;
      this.template = template;
      this.shape = shape;
    }
  }

  // ---- requests for the JDK client ----

  static Gen<Req> apiRequests() {
    Map<Route, Gen<Req>> byRoute = new EnumMap<>(Route.class);
    for (Route route : Route.values()) {
      byRoute.put(route, requestFor(route));
    }
    return frequency(
        weight(60, Generate.enumValues(Route.class).flatMap(byRoute::get)),
        weight(1, overPayloadLimit()));
  }

  /**
   * Enqueues whose payload is just over the server's default limit of 1 MiB, sent so that the
   * server reads them: to a route that takes a body, with a token that may. (A request the server
   * answers before reading its body, 401 or 405, is answered and the connection closed while a
   * large body is still being sent, and the JDK client then reports the broken connection instead
   * of the answer.)
   */
  private static Gen<Req> overPayloadLimit() {
    String payload = "\"" + "a".repeat(OVER_PAYLOAD_LIMIT) + "\"";
    List<String[]> headers =
        List.<String[]>of(
            new String[] {"Authorization", "Bearer " + ADMIN},
            new String[] {"Content-Type", "application/json"});
    Req one =
        new Req(
            Route.ENQUEUE.name(),
            "POST",
            "/v1/queues/" + SEED_QUEUE + "/jobs",
            headers,
            ("{\"id\":\"big-1\",\"payload\":" + payload + "}").getBytes(StandardCharsets.UTF_8),
            "over-payload-limit");
    Req batch =
        new Req(
            Route.BATCH.name(),
            "POST",
            "/v1/queues/" + SEED_QUEUE + "/jobs/batch",
            headers,
            ("{\"jobs\":[{\"payload\":1},{\"id\":\"big-2\",\"payload\":" + payload + "}]}")
                .getBytes(StandardCharsets.UTF_8),
            "over-payload-limit");
    return oneOf(one, batch);
  }

  private static Gen<Req> requestFor(Route route) {
    Gen<String> method =
        frequency(
            weight(18, just(route.method)),
            weight(
                2,
                oneOf(
                    "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "FROB")));
    Gen<String> query =
        frequency(
            weight(9, just("")),
            weight(1, text(0, 20).zip(text(0, 20), (k, v) -> "?" + enc(k) + "=" + enc(v))));
    Gen<String> path =
        queueSegment()
            .zip(
                idSegment(),
                query,
                (q, id, qs) -> route.template.replace("{q}", q).replace("{id}", id) + qs);
    return method.zip(
        path,
        headers(),
        body(route.shape),
        (m, p, h, b) -> new Req(route.name(), m, p, h, b.bytes, b.kind));
  }

  /** GETs of a dead list with odd {@code limit} and {@code cursor} query parameters. */
  static Gen<Req> deadListRequests() {
    Gen<String> limit =
        frequency(
            weight(3, just("")),
            weight(
                6,
                oneOf(
                    "limit=1",
                    "limit=2",
                    "limit=1000",
                    "limit=0",
                    "limit=-1",
                    "limit=1001",
                    "limit=",
                    "limit=abc",
                    "limit=1.5",
                    "limit=2147483648",
                    "limit=99999999999999999999",
                    "limit=%00",
                    "limit=%205",
                    "limit=0x10",
                    "limit=1&limit=2",
                    "limit=%EF%BC%91")),
            weight(1, text(0, 12).map(s -> "limit=" + enc(s))));
    Gen<String> cursor =
        frequency(
            weight(3, just("")),
            weight(3, just("cursor=" + REAL_CURSOR)),
            weight(4, forgedCursor().map(c -> "cursor=" + enc(c))),
            weight(
                2,
                oneOf(
                    "cursor=",
                    "cursor=%00",
                    "cursor=" + "A".repeat(200),
                    "cursor=" + "A".repeat(201),
                    "cursor=====",
                    "cursor=%C3%28",
                    "cursor=MDox",
                    "cursor=a&cursor=b")),
            weight(2, text(0, 250).map(s -> "cursor=" + enc(s))));
    Gen<String> queue = frequency(weight(8, just(SEED_QUEUE)), weight(2, queueSegment()));
    return queue.zip(
        limit,
        cursor,
        headers(),
        (q, l, c, h) -> {
          String qs = l.isEmpty() ? c : c.isEmpty() ? l : l + "&" + c;
          String path = "/v1/queues/" + q + "/dead" + (qs.isEmpty() ? "" : "?" + qs);
          return new Req(Route.DEAD_LIST.name(), "GET", path, h, new byte[0], "none");
        });
  }

  /** Base64url of {@code partition:time:id} with odd parts: the shape of a real cursor. */
  private static Gen<String> forgedCursor() {
    Gen<String> partition = oneOf("0", "1", "-1", "99", "x", "2147483648", "", " 0", "0.0");
    Gen<String> at =
        oneOf(
            "-1", "0", "1", "9223372036854775807", "-9223372036854775808", "x", "1e400", "", "NaN");
    Gen<String> id =
        frequency(weight(2, oneOf("", "x-1", "x-2", "zzz", ":", "a:b:c")), weight(1, text(0, 40)));
    return partition
        .zip(at, id, (p, t, i) -> p + ":" + t + ":" + i)
        .map(
            s ->
                Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString(s.getBytes(StandardCharsets.UTF_8)));
  }

  // ---- path segments ----

  /** Path segments that the JDK client accepts in a URI but that are odd for the API. */
  private static final String[] ODD_SEGMENTS = {
    "",
    ".",
    "..",
    "%2e",
    "%2e%2e",
    "%2F",
    "a%2Fb",
    "..%2F..",
    "%5C",
    "%00",
    "%25",
    "%C3%28",
    "%FF",
    "a;b",
    "a%3Bb",
    "%20",
    "~",
    "a..b",
    "%E2%80%AE",
    "%F0%9F%98%80",
    "%EF%BB%BF",
    "-",
    "_",
    "CON",
  };

  static Gen<String> queueSegment() {
    return frequency(
        weight(8, just(SEED_QUEUE)),
        weight(3, strings(NAME_CHARS, 1, 20)),
        weight(1, strings("abcdefghijklmnopqrstuvwxyz", 101, 300)),
        weight(1, just("a".repeat(100))),
        weight(3, text(1, 30).map(FuzzRequests::enc)),
        weight(2, oneOf(ODD_SEGMENTS)),
        weight(1, oneOf("other-q", "other-")));
  }

  static Gen<String> idSegment() {
    return frequency(
        weight(6, oneOf(SEED_IDS)),
        weight(2, strings(NAME_CHARS + ":", 1, 30)),
        weight(1, strings("abcdefghijklmnopqrstuvwxyz", 129, 200)),
        weight(1, just("b".repeat(128))),
        weight(2, text(1, 30).map(FuzzRequests::enc)),
        weight(1, oneOf(ODD_SEGMENTS)));
  }

  private static final String NAME_CHARS =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-";

  /** Any text, from plain ASCII to unpaired surrogates and control characters. */
  static Gen<String> text(int min, int max) {
    return frequency(
        weight(3, strings('\u0000', '\u007f', min, max)),
        weight(1, strings('\u0000', '\uffff', min, max)),
        weight(1, strings("./\\%;?#:@ \t-_~é漢\u0000\u007f\u202e\ufeff", min, max)));
  }

  /** Percent-encodes every byte of the UTF-8 text outside the URI's unreserved characters. */
  static String enc(String s) {
    StringBuilder out = new StringBuilder();
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (Character.isLetterOrDigit(c) && c < 128 || c == '-' || c == '.' || c == '_' || c == '~') {
        out.append((char) c);
      } else {
        out.append('%').append(String.format("%02X", c));
      }
    }
    return out.toString();
  }

  // ---- headers ----

  static Gen<List<String[]>> headers() {
    Gen<String> junk = strings(' ', '~', 0, 80);
    Gen<String> auth =
        frequency(
            weight(24, just("Bearer " + ADMIN)),
            weight(2, oneOf("Bearer " + PRODUCER, "Bearer " + CONSUMER)),
            weight(2, just("Bearer " + NARROW)),
            weight(2, just("")),
            weight(2, junk.map(j -> "Bearer " + j)),
            weight(1, junk),
            weight(
                3,
                oneOf(
                    "bearer " + ADMIN,
                    "Bearer  " + ADMIN + "  ",
                    "Bearer " + ADMIN + "x",
                    "Bearer " + ADMIN.substring(1),
                    "Basic Zm9vOmJhcg==",
                    "Bearer",
                    "Bearer ",
                    "Token " + ADMIN)));
    Gen<String> contentType =
        frequency(
            weight(6, just("")),
            weight(6, just("application/json")),
            weight(
                4,
                oneOf(
                    "text/plain",
                    "application/x-www-form-urlencoded",
                    "multipart/form-data; boundary=zzz",
                    "application/json; charset=ISO-8859-1",
                    "application/json; charset=utf-16",
                    "application/xml",
                    "*/*",
                    ";;;",
                    "application/json; charset=")),
            weight(1, junk));
    Gen<String> extra = frequency(weight(4, just("")), weight(1, junk));
    return auth.zip(
        contentType,
        extra,
        (a, ct, x) -> {
          List<String[]> hs = new ArrayList<>();
          if (!a.isEmpty()) {
            hs.add(new String[] {"Authorization", a});
          }
          if (!ct.isEmpty()) {
            hs.add(new String[] {"Content-Type", ct});
          }
          if (!x.isEmpty()) {
            hs.add(new String[] {"X-Fuzz", x});
            hs.add(new String[] {"Accept", x});
          }
          return hs;
        });
  }

  // ---- bodies ----

  record Body(String kind, byte[] bytes) {}

  private static Gen<Body> kind(String kind, Gen<String> text) {
    return text.map(s -> new Body(kind, s.getBytes(StandardCharsets.UTF_8)));
  }

  static Gen<Body> body(BodyShape shape) {
    boolean none = shape == BodyShape.NONE;
    Gen<String> shaped = shaped(shape);
    List<Pair<Integer, Gen<Body>>> choices = new ArrayList<>();
    choices.add(weight(none ? 12 : 2, kind("empty", just(""))));
    choices.add(weight(1, kind("blank", oneOf(" ", "\n\t\r ", "\r\n"))));
    choices.add(weight(none ? 2 : 10, kind("shaped", shaped)));
    if (!none) {
      choices.add(weight(10, kind("valid", valid(shape))));
    }
    choices.add(weight(3, kind("truncated", shaped.flatMap(FuzzRequests::truncated))));
    choices.add(
        weight(
            1,
            kind(
                "trailing",
                shaped.zip(
                    oneOf("x", "{}", ",", "]", "\u0000", " {\"a\":1}", "//c"), String::concat))));
    choices.add(weight(1, kind("not-an-object", anyJson(2))));
    choices.add(weight(1, kind("deep", deepNesting())));
    choices.add(weight(1, kind("duplicate-keys", duplicateKeys(shape))));
    choices.add(
        weight(
            1,
            kind(
                "not-json",
                oneOf(
                    "{'id': 'x'}",
                    "{id: 1}",
                    "{\"payload\": NaN}",
                    "{\"payload\": Infinity}",
                    "{\"payload\": 01}",
                    "{\"payload\": .5}",
                    "{\"payload\": 1,}",
                    "{\"payload\" 1}",
                    "{\"payload\": \"\\x41\"}",
                    "{\"payload\": \"a\nb\"}",
                    "{\"payload\": /* c */ 1}",
                    "{\"payload\": tru}",
                    "\ufeff{\"payload\":1}",
                    "{\"payload\":1}\u0000",
                    "null",
                    "{}{}",
                    "{"))));
    choices.add(weight(2, byteArrays(0, 300).map(b -> new Body("random-bytes", b))));
    choices.add(weight(2, invalidUtf8()));
    return frequency(choices);
  }

  private static Gen<String> truncated(String s) {
    return s.isEmpty() ? just(s) : ints(0, s.length() - 1).map(i -> s.substring(0, i));
  }

  private static Gen<String> deepNesting() {
    return oneOf(32, 998, 999, 1000, 1001, 5000, 20_000)
        .flatMap(
            depth ->
                oneOf(
                    "{\"payload\":" + "[".repeat(depth) + "]".repeat(depth) + "}",
                    "{\"payload\":" + "[".repeat(depth) + "}",
                    "{\"defaults\":" + "{\"a\":".repeat(depth) + "1" + "}".repeat(depth) + "}",
                    "{\"jobs\":[" + "{\"payload\":".repeat(depth) + "1" + "}".repeat(depth) + "]}",
                    "[".repeat(depth) + "]".repeat(depth)));
  }

  private static Gen<String> duplicateKeys(BodyShape shape) {
    String field =
        switch (shape) {
          case JOB, BATCH, NONE -> "payload";
          case SCHEDULE -> "delayMs";
          case CLAIM -> "max";
          case SETTLE -> "receipt";
          case QUEUE -> "partitions";
        };
    return oneOf(
        "{\"" + field + "\":1,\"" + field + "\":2}",
        "{\"jobs\":[],\"jobs\":[{\"payload\":1}]}",
        "{\"payload\":{\"a\":1,\"a\":2}}",
        "{\"id\":\"a\",\"id\":\"b\",\"payload\":1}");
  }

  private static Gen<Body> invalidUtf8() {
    byte[][] bad = {
      {(byte) 0xff},
      {(byte) 0xc3, 0x28},
      {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
      {(byte) 0xe9},
      {(byte) 0xf8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80},
      {(byte) 0xc0, (byte) 0xaf},
      {(byte) 0xe2, (byte) 0x82},
    };
    String[][] around = {
      {"{\"payload\":\"", "\"}"},
      {"{\"id\":\"", "\",\"payload\":1}"},
      {"{\"", "\":1}"},
      {"{\"receipt\":\"", "\"}"},
      {"{\"jobs\":[{\"payload\":\"", "\"}]}"},
      {"{\"defaults\":{\"backoff\":{\"type\":\"", "\"}}}"},
      {"", ""},
    };
    return oneOf(bad)
        .zip(
            oneOf(around),
            (b, a) -> {
              ByteArrayOutputStream out = new ByteArrayOutputStream();
              out.writeBytes(a[0].getBytes(StandardCharsets.UTF_8));
              out.writeBytes(b);
              out.writeBytes(a[1].getBytes(StandardCharsets.UTF_8));
              return new Body("invalid-utf8", out.toByteArray());
            });
  }

  // ---- raw requests ----

  /** A request line's method and target. */
  private record RequestLine(String method, String target) {}

  /** A body as it goes on the wire: its framing headers (each line ended) and the bytes after. */
  private record Framed(String headers, byte[] bytes) {}

  /**
   * Request bytes as they go on the wire, including what no client library sends: odd bytes in the
   * request line and headers, unknown versions, broken framing (lying Content-Length, bad chunks,
   * both at once). Text here is ISO-8859-1, one char per byte.
   */
  static Gen<RawReq> rawRequests() {
    Gen<String> method =
        frequency(
            weight(12, oneOf("GET", "POST", "PUT", "DELETE")),
            weight(2, oneOf("HEAD", "OPTIONS", "PATCH", "TRACE", "FROB")),
            weight(1, oneOf("get", bytes("GÉT"), "", "GET GET", "X".repeat(300), "G\tET")));
    Gen<String> version =
        frequency(
            weight(20, just("HTTP/1.1")),
            weight(2, just("HTTP/1.0")),
            weight(
                1,
                oneOf(
                    "HTTP/2.0",
                    "HTTP/9.9",
                    "HTTP/1.2",
                    "HTTX/1.1",
                    "http/1.1",
                    "HTTP/1.1x",
                    "",
                    "HTTP/0.9")));
    Gen<Framed> framedBody =
        Generate.enumValues(BodyShape.class)
            .flatMap(FuzzRequests::body)
            .zip(framing(), (b, frame) -> frame.apply(b.bytes()));
    Gen<RequestLine> line =
        frequency(
            weight(
                2,
                oneOf(
                    new RequestLine("POST", "/v1/queues/" + SEED_QUEUE + "/jobs"),
                    new RequestLine("POST", "/v1/queues/" + SEED_QUEUE + "/jobs/batch"),
                    new RequestLine("POST", "/v1/queues/" + SEED_QUEUE + "/claim"),
                    new RequestLine("POST", "/v1/queues/" + SEED_QUEUE + "/jobs/i-1/nack"),
                    new RequestLine("PUT", "/v1/queues/" + SEED_QUEUE + "/jobs/d-1/schedule"),
                    new RequestLine("PUT", "/v1/queues/" + SEED_QUEUE))),
            weight(3, method.zip(rawTarget(), RequestLine::new)));
    return line.zip(
        version,
        rawHeaders(),
        framedBody,
        (l, v, hs, body) -> {
          StringBuilder head = new StringBuilder();
          head.append(l.method()).append(' ').append(l.target());
          if (!v.isEmpty()) {
            head.append(' ').append(v);
          }
          head.append("\r\n");
          for (String h : hs) {
            head.append(h).append("\r\n");
          }
          head.append(body.headers()).append("\r\n");
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          out.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
          out.writeBytes(body.bytes());
          return new RawReq(l.method(), out.toByteArray(), "raw " + l.method());
        });
  }

  /** The UTF-8 bytes of {@code s}, one char per byte. */
  private static String bytes(String s) {
    return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
  }

  private static Gen<String> rawTarget() {
    Gen<String> fragment =
        frequency(
            weight(
                6,
                oneOf(
                    "a", "q1", "r-1", ".", "..", "/", "\\", "%", "%2", "%zz", "%2F", "%00",
                    "%C3%28", "%FF", "%2e%2e", " ", "\t", "?", "#", ";", "@", "~", "&", "=")),
            weight(
                2,
                oneOf(bytes("é"), bytes("漢"), "\u00ff", "\u00c3(", "\u0001", "\u007f", "\u0000")),
            weight(2, just(SEED_QUEUE)),
            weight(1, oneOf("\n", "a")));
    Gen<String> segment = listOf(fragment, 1, 5).map(l -> String.join("", l));
    Gen<String> suffix =
        oneOf(
            "",
            "/jobs",
            "/jobs/r-1",
            "/jobs/x",
            "/dead",
            "/claim",
            "/jobs/r-1/ack",
            "/jobs/batch",
            "/dead/x-1/requeue",
            "/dead?limit=%zz");
    return frequency(
        weight(10, segment.zip(suffix, (s, x) -> "/v1/queues/" + s + x)),
        weight(3, segment.map(s -> "/v1/queues/" + SEED_QUEUE + "/jobs/" + s)),
        weight(
            2,
            oneOf(
                "*",
                "http://x/v1/queues",
                "",
                "v1/queues",
                "/v1/queues?%",
                "/v1/queues#frag",
                "//",
                "/..",
                "/../../etc/passwd",
                "/v1/queues/" + "a".repeat(9000),
                "/%",
                "/v1/queues/%zz",
                "/health/live",
                "/v1/queues/" + SEED_QUEUE)));
  }

  private static Gen<List<String>> rawHeaders() {
    Gen<String> junk =
        strings('\u0000', '\u00ff', 0, 40).map(s -> s.replace("\r", "").replace("\n", ""));
    Gen<String> host =
        frequency(
            weight(9, just("Host: localhost")),
            weight(1, oneOf("", "Host:", "Host: a b", "Host: x\r\nHost: y", bytes("Host: é"))));
    Gen<String> auth =
        frequency(
            weight(6, just("Authorization: Bearer " + ADMIN)),
            weight(1, just("")),
            weight(1, junk.map(j -> "Authorization: " + j)),
            weight(1, just(bytes("Authorization: Bearer ünïcödé-token-00000"))));
    Gen<String> extra =
        frequency(
            weight(2, junk.map(j -> "Content-Type: " + j)),
            weight(2, junk.map(j -> "X-Junk: " + j)),
            weight(
                2,
                oneOf(
                    "NoColonHere",
                    ": empty-name",
                    "Bad Name: x",
                    "X-Fold: a\r\n folded",
                    "X-Nul: a\u0000b",
                    "X-Long: " + "v".repeat(20_000),
                    "Expect: 100-continue",
                    "Expect: junk",
                    "Transfer-Encoding: gzip",
                    "Connection: upgrade, close",
                    "Upgrade: h2c",
                    "Content-Encoding: gzip",
                    "X-Ctl: \u0001",
                    "Content-Type: application/json")));
    return host.zip(
        auth,
        listOf(extra, 0, 3),
        (h, a, xs) -> {
          List<String> all = new ArrayList<>();
          if (!h.isEmpty()) {
            all.add(h);
          }
          if (!a.isEmpty()) {
            all.add(a);
          }
          all.addAll(xs);
          return all;
        });
  }

  /** How a body goes on the wire: a function from its bytes to the framing headers and bytes. */
  private static Gen<Function<byte[], Framed>> framing() {
    return frequency(
        weight(6, framed(b -> new Framed("Content-Length: " + b.length + "\r\n", b))),
        weight(3, framed(b -> new Framed("", new byte[0]))),
        weight(1, ints(1, 100).map(more -> lengthFraming(b -> Integer.toString(b.length + more)))),
        weight(
            1,
            oneOf("abc", "-1", "99999999999999999999", "1, 1", "0x10", " 5", "+5", "")
                .map(v -> lengthFraming(b -> v))),
        weight(
            1,
            framed(
                b ->
                    new Framed(
                        "Content-Length: "
                            + b.length
                            + "\r\nContent-Length: "
                            + (b.length + 1)
                            + "\r\n",
                        b))),
        weight(2, framed(b -> new Framed("Transfer-Encoding: chunked\r\n", chunked(b)))),
        weight(
            1,
            oneOf(
                    "zz\r\n",
                    "5\r\nab",
                    "FFFFFFFFFFFFFFFFFFFF\r\nabc\r\n",
                    "3\r\nabc\r\n",
                    "1;ext=\u0001\r\na\r\n0\r\n\r\n",
                    "-1\r\n",
                    "\r\n")
                .map(
                    bad ->
                        (Function<byte[], Framed>)
                            b ->
                                new Framed(
                                    "Transfer-Encoding: chunked\r\n",
                                    bad.getBytes(StandardCharsets.ISO_8859_1)))),
        weight(
            1,
            framed(
                b ->
                    new Framed(
                        "Transfer-Encoding: chunked\r\nContent-Length: " + b.length + "\r\n",
                        chunked(b)))));
  }

  private static Gen<Function<byte[], Framed>> framed(Function<byte[], Framed> framing) {
    return just(framing);
  }

  /** A Content-Length header with the value {@code length} gives for the body, and the body. */
  private static Function<byte[], Framed> lengthFraming(Function<byte[], String> length) {
    return b -> new Framed("Content-Length: " + length.apply(b) + "\r\n", b);
  }

  private static byte[] chunked(byte[] body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (body.length > 0) {
      out.writeBytes(
          (Integer.toHexString(body.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      out.writeBytes(body);
      out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
    }
    out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
    return out.toByteArray();
  }

  // ---- JSON text, shaped by what each route reads ----

  private static final List<String> JOB_FIELDS =
      List.of(
          "id", "payload", "delayMs", "runAt", "maxAttempts", "backoff", "visibilityMs", "ttlMs");

  static Gen<String> shaped(BodyShape shape) {
    return switch (shape) {
      case NONE -> object(List.of("x", "payload", "max", "receipt"), List.of(), 2);
      case JOB -> job();
      case BATCH ->
          frequency(
              weight(6, listOf(job(), 0, 5).map(js -> "{\"jobs\":[" + String.join(",", js) + "]}")),
              weight(2, object(List.of("jobs", "x"), List.of(), 2)),
              weight(1, oneOf("{\"jobs\":[]}", TOO_MANY_JOBS, "{\"jobs\":[1,\"x\",null,[],{}]}")));
      case SCHEDULE -> object(List.of("delayMs", "runAt"), List.of(), 2);
      case CLAIM -> object(List.of("max", "waitMs", "visibilityMs"), List.of(), 2);
      case SETTLE ->
          object(List.of("receipt", "error", "delayMs", "dead", "visibilityMs"), List.of(), 2);
      case QUEUE -> object(List.of("partitions", "defaults", "delivery"), List.of(), 2);
    };
  }

  /**
   * Bodies the route accepts, with ids of the seed jobs half of the time: these get past validation
   * into Redis and meet the seed jobs' states (duplicate ids, inflight, dead, stale receipts, fixed
   * partitions), where a rejection comes late and a stray write would show.
   */
  static Gen<String> valid(BodyShape shape) {
    Gen<String> id = frequency(weight(1, oneOf(SEED_IDS)), weight(1, strings(NAME_CHARS, 1, 12)));
    Gen<String> backoff =
        oneOf(
            "{\"type\":\"fixed\",\"delayMs\":10}",
            "{\"type\":\"exponential\",\"baseMs\":10,\"maxMs\":1000}",
            "{\"type\":\"exponential\",\"baseMs\":10,\"maxMs\":1000,\"jitter\":0}",
            "{\"type\":\"schedule\",\"delaysMs\":[10,20]}");
    Gen<String> when =
        frequency(
            weight(2, just("")),
            weight(2, longs(0, 86_400_000).map(d -> ",\"delayMs\":" + d)),
            weight(1, longs(0, 4_000_000_000_000L).map(t -> ",\"runAt\":" + t)));
    Gen<String> options =
        frequency(
            weight(3, just("")),
            weight(1, ints(1, 1000).map(n -> ",\"maxAttempts\":" + n)),
            weight(1, backoff.map(b -> ",\"backoff\":" + b)),
            weight(1, oneOf(",\"visibilityMs\":3600000", ",\"ttlMs\":86400000")));
    Gen<String> job =
        id.zip(
            anyJson(2),
            when,
            options,
            (i, p, w, o) -> "{\"id\":" + quote(i) + ",\"payload\":" + p + w + o + "}");
    return switch (shape) {
      case NONE -> just("{}");
      case JOB -> job;
      case BATCH -> listOf(job, 1, 4).map(js -> "{\"jobs\":[" + String.join(",", js) + "]}");
      case SCHEDULE ->
          oneOfGens(
              longs(0, 86_400_000).map(d -> "{\"delayMs\":" + d + "}"),
              longs(0, 4_000_000_000_000L).map(t -> "{\"runAt\":" + t + "}"));
      case CLAIM ->
          ints(1, 100)
              .zip(
                  ints(0, 50),
                  oneOf("", ",\"visibilityMs\":3600000"),
                  (m, w, v) -> "{\"max\":" + m + ",\"waitMs\":" + w + v + "}");
      case SETTLE ->
          oneOf("r", "x.1", "0-1.1", "abc-0.1")
              .map(FuzzRequests::quote)
              .zip(
                  oneOf(
                      "",
                      ",\"error\":\"boom\"",
                      ",\"dead\":true",
                      ",\"delayMs\":10",
                      ",\"visibilityMs\":60000"),
                  (r, o) -> "{\"receipt\":" + r + o + "}");
      case QUEUE ->
          oneOf("", "\"partitions\":1,", "\"partitions\":2,")
              .zip(
                  oneOf(
                      "",
                      "\"defaults\":{\"maxAttempts\":3,\"backoff\":"
                          + "{\"type\":\"fixed\",\"delayMs\":10},\"visibilityMs\":3600000,\"ttlMs\":0},"),
                  oneOf("", "\"delivery\":{\"type\":\"pull\"},"),
                  (p, d, v) -> "{" + (p + d + v).replaceAll(",$", "") + "}");
    };
  }

  private static final String TOO_MANY_JOBS =
      "{\"jobs\":[" + String.join(",", Collections.nCopies(1001, "{\"payload\":1}")) + "]}";

  private static Gen<String> job() {
    return object(JOB_FIELDS, List.of("payload"), 2);
  }

  /**
   * A JSON object with some of {@code fields} (and, mostly, all of {@code usual}), each with a
   * value that is often of the right type and range and often not.
   */
  private static Gen<String> object(List<String> fields, List<String> usual, int depth) {
    Gen<List<String>> names =
        distinct(fields)
            .zip(
                ints(0, 3),
                (chosen, r) -> {
                  List<String> all = new ArrayList<>(chosen);
                  if (r > 0) {
                    usual.stream().filter(u -> !all.contains(u)).forEach(all::add);
                  }
                  return all;
                });
    return names.flatMap(
        list -> {
          if (list.isEmpty()) {
            return just("{}");
          }
          List<Gen<String>> entries = new ArrayList<>();
          for (String f : list) {
            entries.add(value(f, depth).map(v -> quote(f) + ":" + v));
          }
          return sequence(entries).map(es -> "{" + String.join(",", es) + "}");
        });
  }

  /** Up to all of {@code values}, each at most once, in a random order; shrinks to none. */
  private static <T> Gen<List<T>> distinct(List<T> values) {
    Gen<Integer> sizes = ints(0, values.size());
    return in -> {
      List<T> left = new ArrayList<>(values);
      int size = sizes.generate(in);
      List<T> chosen = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        chosen.add(left.remove((int) ints(0, left.size() - 1).generate(in)));
      }
      return chosen;
    };
  }

  private static final String[] NUMBERS = {
    "0",
    "-1",
    "1",
    "2",
    "-0",
    "0.5",
    "1.0",
    "1e3",
    "1E400",
    "-1e400",
    "100",
    "101",
    "1000",
    "1001",
    "30000",
    "30001",
    "3600000",
    "86400000",
    "4294967295",
    "4294967296",
    "2147483647",
    "2147483648",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775809",
    "123456789012345678901234567890",
    "1" + "0".repeat(1200),
    "0." + "1".repeat(1200),
  };

  private static final String[] BAD_URLS = {
    "\"ftp://127.0.0.1/x\"",
    "\"not a url\"",
    "\"http://\"",
    "\"/relative/path\"",
    "\"\"",
    "7",
    "null",
    "\"http:///nohost\"",
    "\"https://" + "a".repeat(2100) + ".test/\"",
    "\"http://[::1\"",
    "\"mailto:x@example.com\"",
    "\"file:///etc/passwd\"",
    "\"http ://x\"",
    "[\"http://x\"]",
  };

  private static Gen<String> value(String field, int depth) {
    return switch (field) {
      case "waitMs" ->
          oneOf(
              "0",
              "1",
              "50",
              "100",
              "-1",
              "30001",
              "1.5",
              "\"10\"",
              "null",
              "1e2",
              "99999999999999999999",
              "true");
      case "ttlMs", "visibilityMs" ->
          oneOf(
              "3600000",
              "86400000",
              "0",
              "-1",
              "1.5",
              "\"3600000\"",
              "null",
              "99999999999999999999",
              "true");
      case "partitions" ->
          oneOf("1", "2", "0", "-1", "1025", "2.0", "\"2\"", "null", "4294967297", "{}");
      case "delivery" ->
          frequency(
              weight(
                  4,
                  object(
                      List.of("type", "url", "timeoutMs", "concurrency"),
                      List.of("type"),
                      depth - 1)),
              weight(1, scalar()));
      case "url" -> oneOf(BAD_URLS);
      case "type" ->
          frequency(
              weight(
                  4,
                  oneOf(
                      "\"http\"",
                      "\"pull\"",
                      "\"fixed\"",
                      "\"exponential\"",
                      "\"schedule\"",
                      "\"HTTP\"",
                      "\"\"",
                      "\"ftp\"")),
              weight(1, scalar()));
      case "backoff" ->
          frequency(
              weight(
                  4,
                  object(
                      List.of("type", "delayMs", "baseMs", "maxMs", "jitter", "delaysMs"),
                      List.of("type"),
                      depth - 1)),
              weight(1, scalar()));
      case "defaults" ->
          frequency(
              weight(
                  4,
                  object(
                      List.of("maxAttempts", "backoff", "visibilityMs", "ttlMs", "x"),
                      List.of(),
                      depth - 1)),
              weight(1, scalar()));
      case "delaysMs" ->
          frequency(
              weight(3, listOf(oneOf(NUMBERS), 0, 4).map(l -> "[" + String.join(",", l) + "]")),
              weight(1, oneOf("[]", "[\"1\"]", "[null]", "[" + "1,".repeat(200) + "1]")),
              weight(1, scalar()));
      case "jobs" -> oneOf("[]", "{}", "[{}]", "1", "null", "[[]]");
      case "id", "receipt" ->
          frequency(
              weight(3, oneOf(SEED_IDS).map(FuzzRequests::quote)),
              weight(2, strings(NAME_CHARS + ":", 1, 20).map(FuzzRequests::quote)),
              weight(2, text(0, 140).map(FuzzRequests::quote)),
              weight(1, just(quote("c".repeat(300)))),
              weight(1, scalar()));
      case "dead" -> oneOf("true", "false", "\"true\"", "1", "null");
      case "error" ->
          frequency(
              weight(3, text(0, 50).map(FuzzRequests::quote)),
              weight(1, just(quote("e".repeat(65_537)))),
              weight(1, scalar()));
      case "payload" -> anyJson(depth);
      default -> depth <= 0 ? scalar() : anyJson(depth - 1);
    };
  }

  static Gen<String> scalar() {
    return frequency(
        weight(1, oneOf("null", "true", "false")),
        weight(4, oneOf(NUMBERS)),
        weight(2, anyLong().map(l -> Long.toString(l))),
        weight(2, ints(-5, 100_000).map(i -> Integer.toString(i))),
        weight(3, text(0, 40).map(FuzzRequests::quote)),
        weight(1, oneOf("\"\\ud800\"", "\"\\u0000\"", "\"\\udfff\\ud800\"", "\"\\/\"")));
  }

  /** Any JSON value; objects have arbitrary keys, never the API's. */
  static Gen<String> anyJson(int depth) {
    if (depth <= 0) {
      return scalar();
    }
    Gen<String> array = listOf(anyJson(depth - 1), 0, 4).map(l -> "[" + String.join(",", l) + "]");
    Gen<String> object =
        listOf(strings(LETTERS, 0, 6).zip(anyJson(depth - 1), (k, v) -> new String[] {k, v}), 0, 4)
            .map(
                entries -> {
                  Map<String, String> unique = new LinkedHashMap<>();
                  for (String[] e : entries) {
                    unique.putIfAbsent(e[0], e[1]);
                  }
                  List<String> members = new ArrayList<>();
                  unique.forEach((k, v) -> members.add(quote(k) + ":" + v));
                  return "{" + String.join(",", members) + "}";
                });
    return frequency(weight(3, scalar()), weight(1, array), weight(1, object));
  }

  private static final String LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

  static String quote(String s) {
    try {
      return JSON.writeValueAsString(s);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
