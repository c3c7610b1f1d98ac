package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.server.auth.Role;
import dev.hourglass.server.auth.TokenRule;
import dev.hourglass.server.http.RequestBodies;
import dev.hourglass.testing.RedisExtension;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A request refused before its body is read still gets its answer: the server reads the rest of the
 * body first, so the client is not cut off mid-send (found by FuzzTest).
 */
class EarlyAnswerTest {
  private static final String ADMIN = "admin-token-0123456789";

  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  @Test
  void aRefusedRequestWithALargeBodyGetsItsAnswer() {
    String body = "{\"receipt\":\"" + "r".repeat(8_000_000) + "\"}";
    try (TestServer s =
        TestServer.startQuickStop(
            redis.uri(), List.of(TokenRule.of("adm", ADMIN, Role.ADMIN, List.of("*"))))) {
      var refused = s.call("POST", "/v1/queues/q/jobs/x/ack", body, "wrong-token-0123456789");
      assertThat(refused.status()).isEqualTo(401);
      assertThat(refused.errorCode()).isEqualTo("unauthorized");

      var badName = s.call("POST", "/v1/queues/bad!name/jobs/x/ack", body, ADMIN);
      assertThat(badName.status()).isEqualTo(400);
      assertThat(badName.errorCode()).isEqualTo("invalid_queue_name");
    }
  }

  /**
   * A path with a bad escape in a path parameter ({@code ;%}) passes Jetty, and Javalin's decoder
   * failed on it: 500. {@code PathCheck} refuses it with 400 before any route, after reading the
   * body, so even a large body does not cut the answer off (found by FuzzTest).
   */
  @Test
  void aPathThatDoesNotDecodeIsA400EvenWithALargeBody() throws Exception {
    byte[] body = ascii("{\"runAt\":\"" + "r".repeat(8_000_000) + "\"}");
    try (TestServer s = TestServer.startQuickStop(redis.uri())) {
      for (String path : List.of("/v1/queues/a;%", "/v1/queues/q;x=%zz/jobs/a/schedule")) {
        for (byte[] sent : List.of(new byte[0], body)) {
          try (Socket socket = new Socket("127.0.0.1", s.server().port())) {
            socket.setSoTimeout(20_000);
            RawHttp.send(socket, "PUT", path, List.of(), sent);
            RawHttp.Answer answer = RawHttp.read(socket.getInputStream(), false);
            assertThat(answer.status()).as("%s, %s bytes", path, sent.length).isEqualTo(400);
            assertThat(answer.text()).contains("\"bad_request\"", "not percent-encoded UTF-8");
          }
        }
      }
    }
  }

  /**
   * Jetty's own answers (here to a path that is not UTF-8, refused before any handler) close the
   * connection, and say so: Jetty did not always, and a client that reused the connection got no
   * answer to its next request (found by FuzzTest).
   */
  @Test
  void jettysOwnRefusalsAnnounceThatTheyCloseTheConnection() {
    try (TestServer s = TestServer.startQuickStop(redis.uri())) {
      for (String body : Arrays.asList(null, "{\"runAt\":1}")) {
        var refused = s.call("PUT", "/v1/queues/q/jobs/%FF/schedule", body);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.raw().headers().firstValue("Connection")).hasValue("close");
      }
    }
  }

  /**
   * A route that has no use for a body (here a GET) still reads it before answering. Otherwise,
   * when the body arrives after the headers, Jetty answers, finds the body unread, and closes the
   * connection without saying so; a client that reuses it for its next request gets no answer
   * (found by FuzzTest, where the JDK client then failed a POST with "header parser received no
   * bytes").
   *
   * <p>The body goes out only once the server has handled the request and waits for the rest of its
   * body ({@link RequestBodies#drainRest}), so it surely comes late, in a segment of its own.
   */
  @Test
  void aBodyTheRouteDoesNotUseStillLeavesTheConnectionUsable() throws Exception {
    try (TestServer s = TestServer.startQuickStop(redis.uri());
        Socket socket = new Socket("127.0.0.1", s.server().port())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(ascii("GET /v1/queues HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\n"));
      out.flush();
      await("the server waits for the rest of the body")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(10))
          .until(EarlyAnswerTest::aThreadDrainsARequestBody);
      out.write(ascii("hello"));
      out.flush();
      assertThat(RawHttp.read(socket.getInputStream(), false).status()).isEqualTo(200);

      out.write(ascii("GET /v1/queues HTTP/1.1\r\nHost: localhost\r\n\r\n"));
      out.flush();
      assertThat(RawHttp.read(socket.getInputStream(), false).status())
          .as("the next request on the same connection")
          .isEqualTo(200);
    }
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Whether a thread of this JVM (the in-process server's) is in {@link RequestBodies#drainRest}.
   */
  private static boolean aThreadDrainsARequestBody() {
    return Thread.getAllStackTraces().values().stream()
        .flatMap(Arrays::stream)
        .anyMatch(
            frame ->
                frame.getClassName().equals(RequestBodies.class.getName())
                    && frame.getMethodName().equals("drainRest"));
  }

  @Test
  void theBearerSchemeIsCaseInsensitive() {
    try (TestServer s =
        TestServer.startQuickStop(
            redis.uri(), List.of(TokenRule.of("adm", ADMIN, Role.ADMIN, List.of("*"))))) {
      var r = s.call("GET", "/v1/queues", null, null);
      assertThat(r.status()).isEqualTo(401);
      var lower =
          s.callWithAuthorization(
              "POST", "/v1/queues/q/jobs", "{\"payload\":1}", "bearer " + ADMIN);
      assertThat(lower.status()).isEqualTo(201);
    }
  }
}
