package dev.hourglass.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.embedded.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RedisExtensionPersistentTest {

  @RegisterExtension static RedisExtension redis = RedisExtension.persistent();

  @Test
  void serverWritesAnAofAndSurvivesAKill(RedisServer server) {
    assertThat(server.command("CONFIG", "GET", "appendfsync")).isEqualTo("appendfsync\nalways");
    server.command("SET", "k", "v");

    server.kill();
    server.start();

    assertThat(server.command("GET", "k")).isEqualTo("v");
  }
}
