package dev.hourglass.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.embedded.RedisDeployment;
import dev.hourglass.embedded.RedisServer;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisExtensionFlushTest {

  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private static int firstPort;

  @Test
  @Order(1)
  void writesAKey(RedisServer server) {
    firstPort = server.port();
    assertThat(server).isSameAs(redis.server());
    assertThat(redis.uri()).isEqualTo("redis://127.0.0.1:" + server.port());
    assertThat(server.isPersistent()).isFalse();

    server.command("SET", "leftover", "1");

    assertThat(server.command("GET", "leftover")).isEqualTo("1");
  }

  @Test
  @Order(2)
  void nextTestSeesAnEmptyServerOnTheSameProcess(RedisServer server) {
    assertThat(server.port()).isEqualTo(firstPort);
    assertThat(server.command("GET", "leftover")).isNull();
    assertThat(server.command("DBSIZE")).isEqualTo("0");
  }

  @Nested
  class NestedTests {

    @Test
    void shareTheOuterServer(RedisDeployment deployment) {
      assertThat(deployment).isSameAs(redis.server());
      assertThat(deployment.isRunning()).isTrue();
    }
  }
}
