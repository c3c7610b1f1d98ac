package dev.hourglass.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Generators of random and malformed requests for {@link FuzzTest}: well-formed HTTP requests (for
 * the JDK client) aimed at every route of the API with odd paths, headers and bodies, and raw
 * request bytes for what that client refuses to send.
 *
 * <p>Values that would make a request start work outside itself are never generated valid: a {@code
 * delivery} always has an invalid {@code url} (no push worker ever starts), {@code waitMs} is at
 * most 100 when valid (no long poll outlives its request by much) and {@code partitions} at most 2
 * when valid (a claim starts one promoter thread per partition).
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

  static Arbitrary<Req> apiRequests() {
    return Arbitraries.frequencyOf(
        Tuple.of(60, Arbitraries.of(Route.class).flatMap(FuzzRequests::requestFor)),
        Tuple.of(1, overPayloadLimit()));
  }

  /**
   * Enqueues whose payload is just over the server's default limit of 1 MiB, sent so that the
   * server reads them: to a route that takes a body, with a token that may. (A request the server
   * answers before reading its body, 401 or 405, is answered and the connection closed while a
   * large body is still being sent, and the JDK client then reports the broken connection instead
   * of the answer.)
   */
  private static Arbitrary<Req> overPayloadLimit() {
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
    return Arbitraries.of(one, batch);
  }

  private static Arbitrary<Req> requestFor(Route route) {
    Arbitrary<String> method =
        Arbitraries.frequencyOf(
            Tuple.of(18, Arbitraries.just(route.method)),
            Tuple.of(
                2,
                Arbitraries.of(
                    "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "FROB")));
    Arbitrary<String> query =
        Arbitraries.frequencyOf(
            Tuple.of(9, Arbitraries.just("")),
            Tuple.of(
                1,
                Combinators.combine(text(0, 20), text(0, 20))
                    .as((k, v) -> "?" + enc(k) + "=" + enc(v))));
    Arbitrary<String> path =
        Combinators.combine(queueSegment(), idSegment(), query)
            .as((q, id, qs) -> route.template.replace("{q}", q).replace("{id}", id) + qs);
    return Combinators.combine(method, path, headers(), body(route.shape))
        .as((m, p, h, b) -> new Req(route.name(), m, p, h, b.bytes, b.kind));
  }

  /** GETs of a dead list with odd {@code limit} and {@code cursor} query parameters. */
  static Arbitrary<Req> deadListRequests() {
    Arbitrary<String> limit =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.just("")),
            Tuple.of(
                6,
                Arbitraries.of(
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
            Tuple.of(1, text(0, 12).map(s -> "limit=" + enc(s))));
    Arbitrary<String> cursor =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.just("")),
            Tuple.of(3, Arbitraries.just("cursor=" + REAL_CURSOR)),
            Tuple.of(4, forgedCursor().map(c -> "cursor=" + enc(c))),
            Tuple.of(
                2,
                Arbitraries.of(
                    "cursor=",
                    "cursor=%00",
                    "cursor=" + "A".repeat(200),
                    "cursor=" + "A".repeat(201),
                    "cursor=====",
                    "cursor=%C3%28",
                    "cursor=MDox",
                    "cursor=a&cursor=b")),
            Tuple.of(2, text(0, 250).map(s -> "cursor=" + enc(s))));
    Arbitrary<String> queue =
        Arbitraries.frequencyOf(
            Tuple.of(8, Arbitraries.just(SEED_QUEUE)), Tuple.of(2, queueSegment()));
    return Combinators.combine(queue, limit, cursor, headers())
        .as(
            (q, l, c, h) -> {
              String qs = l.isEmpty() ? c : c.isEmpty() ? l : l + "&" + c;
              String path = "/v1/queues/" + q + "/dead" + (qs.isEmpty() ? "" : "?" + qs);
              return new Req(Route.DEAD_LIST.name(), "GET", path, h, new byte[0], "none");
            });
  }

  /** Base64url of {@code partition:time:id} with odd parts: the shape of a real cursor. */
  private static Arbitrary<String> forgedCursor() {
    Arbitrary<String> partition =
        Arbitraries.of("0", "1", "-1", "99", "x", "2147483648", "", " 0", "0.0");
    Arbitrary<String> at =
        Arbitraries.of(
            "-1", "0", "1", "9223372036854775807", "-9223372036854775808", "x", "1e400", "", "NaN");
    Arbitrary<String> id =
        Arbitraries.frequencyOf(
            Tuple.of(2, Arbitraries.of("", "x-1", "x-2", "zzz", ":", "a:b:c")),
            Tuple.of(1, text(0, 40)));
    return Combinators.combine(partition, at, id)
        .as((p, t, i) -> p + ":" + t + ":" + i)
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

  static Arbitrary<String> queueSegment() {
    return Arbitraries.frequencyOf(
        Tuple.of(8, Arbitraries.just(SEED_QUEUE)),
        Tuple.of(3, validChars(NAME_CHARS, 1, 20)),
        Tuple.of(1, validChars("abcdefghijklmnopqrstuvwxyz", 101, 300)),
        Tuple.of(1, Arbitraries.just("a".repeat(100))),
        Tuple.of(3, text(1, 30).map(FuzzRequests::enc)),
        Tuple.of(2, Arbitraries.of(ODD_SEGMENTS)),
        Tuple.of(1, Arbitraries.of("other-q", "other-")));
  }

  static Arbitrary<String> idSegment() {
    return Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.of(SEED_IDS)),
        Tuple.of(2, validChars(NAME_CHARS + ":", 1, 30)),
        Tuple.of(1, validChars("abcdefghijklmnopqrstuvwxyz", 129, 200)),
        Tuple.of(1, Arbitraries.just("b".repeat(128))),
        Tuple.of(2, text(1, 30).map(FuzzRequests::enc)),
        Tuple.of(1, Arbitraries.of(ODD_SEGMENTS)));
  }

  private static final String NAME_CHARS =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-";

  private static Arbitrary<String> validChars(String chars, int min, int max) {
    return Arbitraries.strings().withChars(chars).ofMinLength(min).ofMaxLength(max);
  }

  /** Any text, from plain ASCII to unpaired surrogates and control characters. */
  static Arbitrary<String> text(int min, int max) {
    return Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.strings().ascii().ofMinLength(min).ofMaxLength(max)),
        Tuple.of(1, Arbitraries.strings().all().ofMinLength(min).ofMaxLength(max)),
        Tuple.of(
            1,
            Arbitraries.strings()
                .withChars("./\\%;?#:@ \t-_~é漢\u0000\u007f\u202e\ufeff")
                .ofMinLength(min)
                .ofMaxLength(max)));
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

  static Arbitrary<List<String[]>> headers() {
    Arbitrary<String> junk = Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(80);
    Arbitrary<String> auth =
        Arbitraries.frequencyOf(
            Tuple.of(24, Arbitraries.just("Bearer " + ADMIN)),
            Tuple.of(2, Arbitraries.of("Bearer " + PRODUCER, "Bearer " + CONSUMER)),
            Tuple.of(2, Arbitraries.just("Bearer " + NARROW)),
            Tuple.of(2, Arbitraries.just("")),
            Tuple.of(2, junk.map(j -> "Bearer " + j)),
            Tuple.of(1, junk),
            Tuple.of(
                3,
                Arbitraries.of(
                    "bearer " + ADMIN,
                    "Bearer  " + ADMIN + "  ",
                    "Bearer " + ADMIN + "x",
                    "Bearer " + ADMIN.substring(1),
                    "Basic Zm9vOmJhcg==",
                    "Bearer",
                    "Bearer ",
                    "Token " + ADMIN)));
    Arbitrary<String> contentType =
        Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.just("")),
            Tuple.of(6, Arbitraries.just("application/json")),
            Tuple.of(
                4,
                Arbitraries.of(
                    "text/plain",
                    "application/x-www-form-urlencoded",
                    "multipart/form-data; boundary=zzz",
                    "application/json; charset=ISO-8859-1",
                    "application/json; charset=utf-16",
                    "application/xml",
                    "*/*",
                    ";;;",
                    "application/json; charset=")),
            Tuple.of(1, junk));
    Arbitrary<String> extra =
        Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.just("")), Tuple.of(1, junk));
    return Combinators.combine(auth, contentType, extra)
        .as(
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

  private static Arbitrary<Body> kind(String kind, Arbitrary<String> text) {
    return text.map(s -> new Body(kind, s.getBytes(StandardCharsets.UTF_8)));
  }

  static Arbitrary<Body> body(BodyShape shape) {
    boolean none = shape == BodyShape.NONE;
    Arbitrary<String> shaped = shaped(shape);
    List<Tuple.Tuple2<Integer, Arbitrary<Body>>> choices = new ArrayList<>();
    choices.add(Tuple.of(none ? 12 : 2, kind("empty", Arbitraries.just(""))));
    choices.add(Tuple.of(1, kind("blank", Arbitraries.of(" ", "\n\t\r ", "\r\n"))));
    choices.add(Tuple.of(none ? 2 : 10, kind("shaped", shaped)));
    if (!none) {
      choices.add(Tuple.of(10, kind("valid", valid(shape))));
    }
    choices.add(Tuple.of(3, kind("truncated", shaped.flatMap(FuzzRequests::truncated))));
    choices.add(
        Tuple.of(
            1,
            kind(
                "trailing",
                Combinators.combine(
                        shaped, Arbitraries.of("x", "{}", ",", "]", "\u0000", " {\"a\":1}", "//c"))
                    .as(String::concat))));
    choices.add(Tuple.of(1, kind("not-an-object", anyJson(2))));
    choices.add(Tuple.of(1, kind("deep", deepNesting())));
    choices.add(Tuple.of(1, kind("duplicate-keys", duplicateKeys(shape))));
    choices.add(
        Tuple.of(
            1,
            kind(
                "not-json",
                Arbitraries.of(
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
    choices.add(
        Tuple.of(
            2,
            Arbitraries.bytes()
                .array(byte[].class)
                .ofMaxSize(300)
                .map(b -> new Body("random-bytes", b))));
    choices.add(Tuple.of(2, invalidUtf8()));
    @SuppressWarnings({"unchecked", "rawtypes"})
    Tuple.Tuple2<Integer, Arbitrary<? extends Body>>[] weighted =
        choices.toArray(Tuple.Tuple2[]::new);
    return Arbitraries.frequencyOf(weighted);
  }

  private static Arbitrary<String> truncated(String s) {
    return s.isEmpty()
        ? Arbitraries.just(s)
        : Arbitraries.integers().between(0, s.length() - 1).map(i -> s.substring(0, i));
  }

  private static Arbitrary<String> deepNesting() {
    return Arbitraries.of(32, 998, 999, 1000, 1001, 5000, 20_000)
        .flatMap(
            depth ->
                Arbitraries.of(
                    "{\"payload\":" + "[".repeat(depth) + "]".repeat(depth) + "}",
                    "{\"payload\":" + "[".repeat(depth) + "}",
                    "{\"defaults\":" + "{\"a\":".repeat(depth) + "1" + "}".repeat(depth) + "}",
                    "{\"jobs\":[" + "{\"payload\":".repeat(depth) + "1" + "}".repeat(depth) + "]}",
                    "[".repeat(depth) + "]".repeat(depth)));
  }

  private static Arbitrary<String> duplicateKeys(BodyShape shape) {
    String field =
        switch (shape) {
          case JOB, BATCH, NONE -> "payload";
          case SCHEDULE -> "delayMs";
          case CLAIM -> "max";
          case SETTLE -> "receipt";
          case QUEUE -> "partitions";
        };
    return Arbitraries.of(
        "{\"" + field + "\":1,\"" + field + "\":2}",
        "{\"jobs\":[],\"jobs\":[{\"payload\":1}]}",
        "{\"payload\":{\"a\":1,\"a\":2}}",
        "{\"id\":\"a\",\"id\":\"b\",\"payload\":1}");
  }

  private static Arbitrary<Body> invalidUtf8() {
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
    return Combinators.combine(Arbitraries.of(bad), Arbitraries.of(around))
        .as(
            (b, a) -> {
              ByteArrayOutputStream out = new ByteArrayOutputStream();
              out.writeBytes(a[0].getBytes(StandardCharsets.UTF_8));
              out.writeBytes(b);
              out.writeBytes(a[1].getBytes(StandardCharsets.UTF_8));
              return new Body("invalid-utf8", out.toByteArray());
            });
  }

  // ---- raw requests ----

  /**
   * Request bytes as they go on the wire, including what no client library sends: odd bytes in the
   * request line and headers, unknown versions, broken framing (lying Content-Length, bad chunks,
   * both at once). Text here is ISO-8859-1, one char per byte.
   */
  static Arbitrary<RawReq> rawRequests() {
    Arbitrary<String> method =
        Arbitraries.frequencyOf(
            Tuple.of(12, Arbitraries.of("GET", "POST", "PUT", "DELETE")),
            Tuple.of(2, Arbitraries.of("HEAD", "OPTIONS", "PATCH", "TRACE", "FROB")),
            Tuple.of(
                1, Arbitraries.of("get", bytes("GÉT"), "", "GET GET", "X".repeat(300), "G\tET")));
    Arbitrary<String> version =
        Arbitraries.frequencyOf(
            Tuple.of(20, Arbitraries.just("HTTP/1.1")),
            Tuple.of(2, Arbitraries.just("HTTP/1.0")),
            Tuple.of(
                1,
                Arbitraries.of(
                    "HTTP/2.0",
                    "HTTP/9.9",
                    "HTTP/1.2",
                    "HTTX/1.1",
                    "http/1.1",
                    "HTTP/1.1x",
                    "",
                    "HTTP/0.9")));
    Arbitrary<Tuple.Tuple2<String, byte[]>> framedBody =
        Combinators.combine(Arbitraries.of(BodyShape.class).flatMap(FuzzRequests::body), framing())
            .as((b, f) -> f.apply(b.bytes()));
    Arbitrary<Tuple.Tuple2<String, String>> methodAndTarget =
        Arbitraries.frequencyOf(
            Tuple.of(
                2,
                Arbitraries.of(
                    Tuple.of("POST", "/v1/queues/" + SEED_QUEUE + "/jobs"),
                    Tuple.of("POST", "/v1/queues/" + SEED_QUEUE + "/jobs/batch"),
                    Tuple.of("POST", "/v1/queues/" + SEED_QUEUE + "/claim"),
                    Tuple.of("POST", "/v1/queues/" + SEED_QUEUE + "/jobs/i-1/nack"),
                    Tuple.of("PUT", "/v1/queues/" + SEED_QUEUE + "/jobs/d-1/schedule"),
                    Tuple.of("PUT", "/v1/queues/" + SEED_QUEUE))),
            Tuple.of(3, Combinators.combine(method, rawTarget()).as(Tuple::of)));
    return Combinators.combine(methodAndTarget, version, rawHeaders(), framedBody)
        .as(
            (mt, v, hs, body) -> {
              String m = mt.get1();
              String t = mt.get2();
              StringBuilder head = new StringBuilder();
              head.append(m).append(' ').append(t);
              if (!v.isEmpty()) {
                head.append(' ').append(v);
              }
              head.append("\r\n");
              for (String h : hs) {
                head.append(h).append("\r\n");
              }
              head.append(body.get1()).append("\r\n");
              ByteArrayOutputStream out = new ByteArrayOutputStream();
              out.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
              out.writeBytes(body.get2());
              return new RawReq(m, out.toByteArray(), "raw " + m);
            });
  }

  /** The UTF-8 bytes of {@code s}, one char per byte. */
  private static String bytes(String s) {
    return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
  }

  private static Arbitrary<String> rawTarget() {
    Arbitrary<String> fragment =
        Arbitraries.frequencyOf(
            Tuple.of(
                6,
                Arbitraries.of(
                    "a", "q1", "r-1", ".", "..", "/", "\\", "%", "%2", "%zz", "%2F", "%00",
                    "%C3%28", "%FF", "%2e%2e", " ", "\t", "?", "#", ";", "@", "~", "&", "=")),
            Tuple.of(
                2,
                Arbitraries.of(
                    bytes("é"), bytes("漢"), "\u00ff", "\u00c3(", "\u0001", "\u007f", "\u0000")),
            Tuple.of(2, Arbitraries.just(SEED_QUEUE)),
            Tuple.of(1, Arbitraries.of("\n", "a")));
    Arbitrary<String> segment =
        fragment.list().ofMinSize(1).ofMaxSize(5).map(l -> String.join("", l));
    Arbitrary<String> suffix =
        Arbitraries.of(
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
    return Arbitraries.frequencyOf(
        Tuple.of(10, Combinators.combine(segment, suffix).as((s, x) -> "/v1/queues/" + s + x)),
        Tuple.of(3, segment.map(s -> "/v1/queues/" + SEED_QUEUE + "/jobs/" + s)),
        Tuple.of(
            2,
            Arbitraries.of(
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

  private static Arbitrary<List<String>> rawHeaders() {
    Arbitrary<String> junk =
        Arbitraries.strings()
            .withCharRange('\u0000', '\u00ff')
            .ofMaxLength(40)
            .map(s -> s.replace("\r", "").replace("\n", ""));
    Arbitrary<String> host =
        Arbitraries.frequencyOf(
            Tuple.of(9, Arbitraries.just("Host: localhost")),
            Tuple.of(
                1,
                Arbitraries.of("", "Host:", "Host: a b", "Host: x\r\nHost: y", bytes("Host: é"))));
    Arbitrary<String> auth =
        Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.just("Authorization: Bearer " + ADMIN)),
            Tuple.of(1, Arbitraries.just("")),
            Tuple.of(1, junk.map(j -> "Authorization: " + j)),
            Tuple.of(1, Arbitraries.just(bytes("Authorization: Bearer ünïcödé-token-00000"))));
    Arbitrary<String> extra =
        Arbitraries.frequencyOf(
            Tuple.of(2, junk.map(j -> "Content-Type: " + j)),
            Tuple.of(2, junk.map(j -> "X-Junk: " + j)),
            Tuple.of(
                2,
                Arbitraries.of(
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
    return Combinators.combine(host, auth, extra.list().ofMaxSize(3))
        .as(
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

  /** How a body goes on the wire: the framing headers (each line ended) and the bytes after. */
  private static Arbitrary<java.util.function.Function<byte[], Tuple.Tuple2<String, byte[]>>>
      framing() {
    return Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.just(b -> Tuple.of("Content-Length: " + b.length + "\r\n", b))),
        Tuple.of(3, Arbitraries.just(b -> Tuple.of("", new byte[0]))),
        Tuple.of(
            1,
            Arbitraries.integers()
                .between(1, 100)
                .map(more -> b -> Tuple.of("Content-Length: " + (b.length + more) + "\r\n", b))),
        Tuple.of(
            1,
            Arbitraries.of("abc", "-1", "99999999999999999999", "1, 1", "0x10", " 5", "+5", "")
                .map(v -> b -> Tuple.of("Content-Length: " + v + "\r\n", b))),
        Tuple.of(
            1,
            Arbitraries.just(
                b ->
                    Tuple.of(
                        "Content-Length: "
                            + b.length
                            + "\r\nContent-Length: "
                            + (b.length + 1)
                            + "\r\n",
                        b))),
        Tuple.of(2, Arbitraries.just(b -> Tuple.of("Transfer-Encoding: chunked\r\n", chunked(b)))),
        Tuple.of(
            1,
            Arbitraries.of(
                    "zz\r\n",
                    "5\r\nab",
                    "FFFFFFFFFFFFFFFFFFFF\r\nabc\r\n",
                    "3\r\nabc\r\n",
                    "1;ext=\u0001\r\na\r\n0\r\n\r\n",
                    "-1\r\n",
                    "\r\n")
                .map(
                    bad ->
                        b ->
                            Tuple.of(
                                "Transfer-Encoding: chunked\r\n",
                                bad.getBytes(StandardCharsets.ISO_8859_1)))),
        Tuple.of(
            1,
            Arbitraries.just(
                b ->
                    Tuple.of(
                        "Transfer-Encoding: chunked\r\nContent-Length: " + b.length + "\r\n",
                        chunked(b)))));
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

  static Arbitrary<String> shaped(BodyShape shape) {
    return switch (shape) {
      case NONE -> object(List.of("x", "payload", "max", "receipt"), List.of(), 2);
      case JOB -> job();
      case BATCH ->
          Arbitraries.frequencyOf(
              Tuple.of(
                  6,
                  job().list().ofMaxSize(5).map(js -> "{\"jobs\":[" + String.join(",", js) + "]}")),
              Tuple.of(2, object(List.of("jobs", "x"), List.of(), 2)),
              Tuple.of(
                  1,
                  Arbitraries.of(
                      "{\"jobs\":[]}", TOO_MANY_JOBS, "{\"jobs\":[1,\"x\",null,[],{}]}")));
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
  static Arbitrary<String> valid(BodyShape shape) {
    Arbitrary<String> id =
        Arbitraries.frequencyOf(
            Tuple.of(1, Arbitraries.of(SEED_IDS)), Tuple.of(1, validChars(NAME_CHARS, 1, 12)));
    Arbitrary<String> backoff =
        Arbitraries.of(
            "{\"type\":\"fixed\",\"delayMs\":10}",
            "{\"type\":\"exponential\",\"baseMs\":10,\"maxMs\":1000}",
            "{\"type\":\"exponential\",\"baseMs\":10,\"maxMs\":1000,\"jitter\":0}",
            "{\"type\":\"schedule\",\"delaysMs\":[10,20]}");
    Arbitrary<String> when =
        Arbitraries.frequencyOf(
            Tuple.of(2, Arbitraries.just("")),
            Tuple.of(2, Arbitraries.longs().between(0, 86_400_000).map(d -> ",\"delayMs\":" + d)),
            Tuple.of(
                1, Arbitraries.longs().between(0, 4_000_000_000_000L).map(t -> ",\"runAt\":" + t)));
    Arbitrary<String> options =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.just("")),
            Tuple.of(1, Arbitraries.integers().between(1, 1000).map(n -> ",\"maxAttempts\":" + n)),
            Tuple.of(1, backoff.map(b -> ",\"backoff\":" + b)),
            Tuple.of(1, Arbitraries.of(",\"visibilityMs\":1000", ",\"ttlMs\":86400000")));
    Arbitrary<String> job =
        Combinators.combine(id, anyJson(2), when, options)
            .as((i, p, w, o) -> "{\"id\":" + quote(i) + ",\"payload\":" + p + w + o + "}");
    return switch (shape) {
      case NONE -> Arbitraries.just("{}");
      case JOB -> job;
      case BATCH ->
          job.list()
              .ofMinSize(1)
              .ofMaxSize(4)
              .map(js -> "{\"jobs\":[" + String.join(",", js) + "]}");
      case SCHEDULE ->
          Arbitraries.oneOf(
              Arbitraries.longs().between(0, 86_400_000).map(d -> "{\"delayMs\":" + d + "}"),
              Arbitraries.longs().between(0, 4_000_000_000_000L).map(t -> "{\"runAt\":" + t + "}"));
      case CLAIM ->
          Combinators.combine(
                  Arbitraries.integers().between(1, 100),
                  Arbitraries.integers().between(0, 50),
                  Arbitraries.of("", ",\"visibilityMs\":3600000"))
              .as((m, w, v) -> "{\"max\":" + m + ",\"waitMs\":" + w + v + "}");
      case SETTLE ->
          Combinators.combine(
                  Arbitraries.of("r", "x.1", "0-1.1", "abc-0.1").map(FuzzRequests::quote),
                  Arbitraries.of(
                      "",
                      ",\"error\":\"boom\"",
                      ",\"dead\":true",
                      ",\"delayMs\":10",
                      ",\"visibilityMs\":60000"))
              .as((r, o) -> "{\"receipt\":" + r + o + "}");
      case QUEUE ->
          Combinators.combine(
                  Arbitraries.of("", "\"partitions\":1,", "\"partitions\":2,"),
                  Arbitraries.of(
                      "",
                      "\"defaults\":{\"maxAttempts\":3,\"backoff\":"
                          + "{\"type\":\"fixed\",\"delayMs\":10},\"visibilityMs\":60000,\"ttlMs\":0},"),
                  Arbitraries.of("", "\"delivery\":{\"type\":\"pull\"},"))
              .as((p, d, v) -> "{" + (p + d + v).replaceAll(",$", "") + "}");
    };
  }

  private static final String TOO_MANY_JOBS =
      "{\"jobs\":[" + String.join(",", Collections.nCopies(1001, "{\"payload\":1}")) + "]}";

  private static Arbitrary<String> job() {
    return object(JOB_FIELDS, List.of("payload"), 2);
  }

  /**
   * A JSON object with some of {@code fields} (and, mostly, all of {@code usual}), each with a
   * value that is often of the right type and range and often not.
   */
  private static Arbitrary<String> object(List<String> fields, List<String> usual, int depth) {
    Arbitrary<List<String>> names =
        Arbitraries.of(fields)
            .set()
            .ofMaxSize(fields.size())
            .flatMap(
                chosen ->
                    Arbitraries.integers()
                        .between(0, 3)
                        .map(
                            r -> {
                              List<String> all = new ArrayList<>(chosen);
                              if (r > 0) {
                                usual.stream().filter(u -> !all.contains(u)).forEach(all::add);
                              }
                              return all;
                            }));
    return names.flatMap(
        list -> {
          if (list.isEmpty()) {
            return Arbitraries.just("{}");
          }
          List<Arbitrary<String>> entries = new ArrayList<>();
          for (String f : list) {
            entries.add(value(f, depth).map(v -> quote(f) + ":" + v));
          }
          return Combinators.combine(entries).as(es -> "{" + String.join(",", es) + "}");
        });
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

  private static Arbitrary<String> value(String field, int depth) {
    return switch (field) {
      case "waitMs" ->
          Arbitraries.of(
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
      case "partitions" ->
          Arbitraries.of("1", "2", "0", "-1", "1025", "2.0", "\"2\"", "null", "4294967297", "{}");
      case "delivery" ->
          Arbitraries.frequencyOf(
              Tuple.of(
                  4,
                  object(
                      List.of("type", "url", "timeoutMs", "concurrency"),
                      List.of("type"),
                      depth - 1)),
              Tuple.of(1, scalar()));
      case "url" -> Arbitraries.of(BAD_URLS);
      case "type" ->
          Arbitraries.frequencyOf(
              Tuple.of(
                  4,
                  Arbitraries.of(
                      "\"http\"",
                      "\"pull\"",
                      "\"fixed\"",
                      "\"exponential\"",
                      "\"schedule\"",
                      "\"HTTP\"",
                      "\"\"",
                      "\"ftp\"")),
              Tuple.of(1, scalar()));
      case "backoff" ->
          Arbitraries.frequencyOf(
              Tuple.of(
                  4,
                  object(
                      List.of("type", "delayMs", "baseMs", "maxMs", "jitter", "delaysMs"),
                      List.of("type"),
                      depth - 1)),
              Tuple.of(1, scalar()));
      case "defaults" ->
          Arbitraries.frequencyOf(
              Tuple.of(
                  4,
                  object(
                      List.of("maxAttempts", "backoff", "visibilityMs", "ttlMs", "x"),
                      List.of(),
                      depth - 1)),
              Tuple.of(1, scalar()));
      case "delaysMs" ->
          Arbitraries.frequencyOf(
              Tuple.of(
                  3,
                  Arbitraries.of(NUMBERS)
                      .list()
                      .ofMaxSize(4)
                      .map(l -> "[" + String.join(",", l) + "]")),
              Tuple.of(1, Arbitraries.of("[]", "[\"1\"]", "[null]", "[" + "1,".repeat(200) + "1]")),
              Tuple.of(1, scalar()));
      case "jobs" -> Arbitraries.of("[]", "{}", "[{}]", "1", "null", "[[]]");
      case "id", "receipt" ->
          Arbitraries.frequencyOf(
              Tuple.of(3, Arbitraries.of(SEED_IDS).map(FuzzRequests::quote)),
              Tuple.of(2, validChars(NAME_CHARS + ":", 1, 20).map(FuzzRequests::quote)),
              Tuple.of(2, text(0, 140).map(FuzzRequests::quote)),
              Tuple.of(1, Arbitraries.just(quote("c".repeat(300)))),
              Tuple.of(1, scalar()));
      case "dead" -> Arbitraries.of("true", "false", "\"true\"", "1", "null");
      case "error" ->
          Arbitraries.frequencyOf(
              Tuple.of(3, text(0, 50).map(FuzzRequests::quote)),
              Tuple.of(1, Arbitraries.just(quote("e".repeat(65_537)))),
              Tuple.of(1, scalar()));
      case "payload" -> anyJson(depth);
      default -> depth <= 0 ? scalar() : anyJson(depth - 1);
    };
  }

  static Arbitrary<String> scalar() {
    return Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.of("null", "true", "false")),
        Tuple.of(4, Arbitraries.of(NUMBERS)),
        Tuple.of(2, Arbitraries.longs().map(String::valueOf)),
        Tuple.of(2, Arbitraries.integers().between(-5, 100_000).map(String::valueOf)),
        Tuple.of(3, text(0, 40).map(FuzzRequests::quote)),
        Tuple.of(1, Arbitraries.of("\"\\ud800\"", "\"\\u0000\"", "\"\\udfff\\ud800\"", "\"\\/\"")));
  }

  /** Any JSON value; objects have arbitrary keys, never the API's. */
  static Arbitrary<String> anyJson(int depth) {
    if (depth <= 0) {
      return scalar();
    }
    Arbitrary<String> array =
        anyJson(depth - 1).list().ofMaxSize(4).map(l -> "[" + String.join(",", l) + "]");
    Arbitrary<String> object =
        Combinators.combine(Arbitraries.strings().alpha().ofMaxLength(6), anyJson(depth - 1))
            .as((k, v) -> quote(k) + ":" + v)
            .list()
            .ofMaxSize(4)
            .uniqueElements(e -> e.substring(0, e.indexOf("\":") + 1))
            .map(l -> "{" + String.join(",", l) + "}");
    return Arbitraries.frequencyOf(Tuple.of(3, scalar()), Tuple.of(1, array), Tuple.of(1, object));
  }

  static String quote(String s) {
    try {
      return JSON.writeValueAsString(s);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
