package dev.hourglass.server;

import static dev.hourglass.server.ContractSupport.ADMIN_TOKEN;
import static dev.hourglass.server.ContractSupport.assertError;
import static dev.hourglass.server.ContractSupport.assertJson;
import static dev.hourglass.server.ContractSupport.claimsWaiting;
import static dev.hourglass.server.ContractSupport.digest;
import static dev.hourglass.server.ContractSupport.j;
import static dev.hourglass.server.ContractSupport.sendClaim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.hourglass.server.auth.Role;
import dev.hourglass.server.auth.TokenRule;
import dev.hourglass.testing.RedisExtension;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What one server holds at once: long-poll claims in total ({@code --max-waiting-claims}) and per
 * client ({@code --max-waiting-claims-per-client}), refused past the limit with 429 {@code
 * rate_limited} before anything is written; and HTTP connections ({@code --max-connections}), past
 * which a new connection waits to be accepted until one closes.
 */
class ContractLimitsTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private static final String A = "consumer-a-0123456789";
  private static final String B = "consumer-b-0123456789";
  private static final String WAIT = "{\"max\":1,\"waitMs\":30000}";
  private static final Pattern CONNECTIONS =
      Pattern.compile("(?m)^hourglass_http_connections(?:\\{[^}]*\\})? (\\S+)$");

  private final List<Socket> sockets = new ArrayList<>();

  @AfterEach
  void closeSockets() throws IOException {
    for (Socket socket : sockets) {
      socket.close();
    }
  }

  @Test
  void longPollsPastTheLimitPerTokenOrInTotalAreRefusedAndWriteNothing() throws Exception {
    try (TestServer s =
        TestServer.startQuickStop(
            redis.uri(),
            List.of(
                TokenRule.of("a", A, Role.CONSUMER, List.of("*")),
                TokenRule.of("b", B, Role.CONSUMER, List.of("*")),
                TokenRule.of("ops", ADMIN_TOKEN, Role.ADMIN, List.of("*"))),
            Map.of("max-waiting-claims", "3", "max-waiting-claims-per-client", "2"))) {
      waitingClaim(s, A, InetAddress.getLoopbackAddress(), 1);
      waitingClaim(s, A, InetAddress.getLoopbackAddress(), 2);
      String before = digest(redis);

      TestServer.Response mine = s.call("POST", "/v1/queues/q/claim", WAIT, A);
      assertThat(assertError(mine, 429, "rate_limited"))
          .contains("token 'a'", "--max-waiting-claims-per-client");
      assertThat(mine.raw().headers().firstValue("Retry-After")).hasValue("1");
      assertThat(digest(redis)).as("Redis after the refused claim").isEqualTo(before);

      waitingClaim(s, B, InetAddress.getLoopbackAddress(), 3);
      String full = digest(redis);
      TestServer.Response total = s.call("POST", "/v1/queues/q/claim", WAIT, B);
      assertThat(assertError(total, 429, "rate_limited"))
          .contains("the server holds 3 waiting claims", "--max-waiting-claims)");
      assertError(s.call("POST", "/v1/queues/other/claim", WAIT, A), 429, "rate_limited");
      assertThat(digest(redis)).as("Redis after the refused claims").isEqualTo(full);
      assertThat(assertJson(s.call("POST", "/v1/queues/q/claim", "{\"max\":1}", A), 200))
          .as("a claim that does not wait is not limited")
          .hasToString("{\"jobs\":[]}");

      assertJson(
          s.call("POST", "/v1/queues/q/jobs", j("{'id':'x','payload':1}"), ADMIN_TOKEN), 201);
      await("a waiting claim takes the job and its place is free")
          .atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> claimsWaiting(s, A) == 2);
      waitingClaim(s, B, InetAddress.getLoopbackAddress(), 3);
    }
  }

  /** With auth off a client is the address it connects from; X-Forwarded-For does not change it. */
  @Test
  void withAuthOffEachAddressIsOneClient() throws Exception {
    try (TestServer s =
        TestServer.startQuickStop(
            redis.uri(), List.of(), Map.of("max-waiting-claims-per-client", "1"))) {
      waitingClaim(s, null, InetAddress.getByName("127.0.0.1"), 1);
      Socket spoofed = connect(s, InetAddress.getByName("127.0.0.1"));
      sendClaim(spoofed, "q", WAIT, null, "10.1.2.3");
      RawHttp.Answer refused = RawHttp.read(spoofed.getInputStream(), false);
      assertThat(refused.status()).isEqualTo(429);
      assertThat(refused.text()).contains("rate_limited", "address 127.0.0.1 holds 1");

      waitingClaim(s, null, InetAddress.getByName("127.0.0.2"), 2);
    }
  }

  @Test
  void connectionsPastTheLimitWaitToBeAcceptedUntilOneCloses() throws Exception {
    try (TestServer s =
        TestServer.startQuickStop(redis.uri(), List.of(), Map.of("max-connections", "3"))) {
      Socket first = connect(s, InetAddress.getLoopbackAddress());
      Socket second = connect(s, InetAddress.getLoopbackAddress());
      assertThat(get(first, "/health/live").status()).isEqualTo(200);
      assertThat(get(second, "/health/live").status()).isEqualTo(200);
      Socket third = connect(s, InetAddress.getLoopbackAddress());
      RawHttp.Answer metrics = get(third, "/metrics");
      Matcher open = CONNECTIONS.matcher(metrics.text());
      assertThat(open.find()).as("hourglass_http_connections in /metrics").isTrue();
      assertThat(Double.parseDouble(open.group(1))).isEqualTo(3.0);

      Socket fourth = connect(s, InetAddress.getLoopbackAddress());
      RawHttp.send(fourth, "GET", "/health/live", List.of(), null);
      fourth.setSoTimeout(1000);
      assertThatThrownBy(() -> RawHttp.read(fourth.getInputStream(), false))
          .as("no answer on a fourth connection while three are open")
          .isInstanceOf(SocketTimeoutException.class);

      first.close();
      fourth.setSoTimeout(20_000);
      assertThat(RawHttp.read(fourth.getInputStream(), false).status())
          .as("the fourth connection, once the first closed")
          .isEqualTo(200);
    }
  }

  /** Sends a claim that waits from {@code from}, and waits until the server holds {@code held}. */
  private void waitingClaim(TestServer s, String token, InetAddress from, long held)
      throws IOException {
    sendClaim(connect(s, from), "q", WAIT, token, null);
    await("the claim waits")
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> claimsWaiting(s, token == null ? null : ADMIN_TOKEN) == held);
  }

  private Socket connect(TestServer s, InetAddress from) throws IOException {
    Socket socket = new Socket(InetAddress.getLoopbackAddress(), s.server().port(), from, 0);
    sockets.add(socket);
    socket.setSoTimeout(20_000);
    return socket;
  }

  private static RawHttp.Answer get(Socket socket, String path) throws IOException {
    RawHttp.send(socket, "GET", path, List.of(), null);
    return RawHttp.read(socket.getInputStream(), false);
  }
}
