package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.server.auth.Role;
import dev.hourglass.server.auth.TokenRule;
import dev.hourglass.testing.RedisExtension;
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
