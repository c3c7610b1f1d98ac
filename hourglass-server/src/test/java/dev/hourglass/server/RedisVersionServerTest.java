package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.RedisVersionException;
import dev.hourglass.embedded.RedisServer;
import dev.hourglass.server.config.ConfigException;
import dev.hourglass.server.config.ConfigLoader;
import dev.hourglass.server.config.ServerConfig;
import dev.hourglass.testing.OldRedis;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server refuses to start on a Redis older than 6.2 (a real Redis 6.0.5, {@link OldRedis}),
 * given by --redis or as the embedded one, and lets go of the data directory; --embedded-redis is
 * checked as it is read.
 */
class RedisVersionServerTest {
  @TempDir Path tmp;

  @Test
  void refusesAnExternalRedisOlderThan62() {
    try (RedisServer old = RedisServer.builder().binary(OldRedis.binary()).build()) {
      old.start();
      ServerConfig config = ServerConfig.embedded(tmp, 0).with(Optional.of(old.uri()), List.of());

      assertThatThrownBy(() -> HourglassServer.start(config))
          .isInstanceOf(RedisVersionException.class)
          .hasMessage(
              "Redis 6.0.5 at 127.0.0.1:"
                  + old.port()
                  + " is older than 6.2, the oldest Hourglass supports; upgrade it"
                  + " (docs/COMPATIBILITY.md)");
    }
  }

  @Test
  void refusesAnEmbeddedRedisOlderThan62AndFreesTheDataDirectory() {
    Path data = tmp.resolve("data");
    ServerConfig old =
        ConfigLoader.load(
            Map.of(
                "data-dir",
                data.toString(),
                "port",
                "0",
                "embedded-redis",
                OldRedis.binary().toString()),
            Map.of(),
            null);
    assertThat(old.embeddedRedis()).isEqualTo(OldRedis.binary().toString());

    assertThatThrownBy(() -> HourglassServer.start(old))
        .isInstanceOf(RedisVersionException.class)
        .hasMessageStartingWith("Redis 6.0.5 at 127.0.0.1:");
    try (HourglassServer server = HourglassServer.start(ServerConfig.embedded(data, 0))) {
      assertThat(server.hourglass().queueNames()).isEmpty();
    }
  }

  @Test
  void embeddedRedisIsAutoBundledOrAnExecutable() {
    assertThat(ConfigLoader.load(Map.of(), Map.of(), null).embeddedRedis()).isEqualTo("auto");
    assertThat(ServerConfig.embedded(tmp, 0).embeddedRedis()).isEqualTo("bundled");
    assertThatThrownBy(
            () ->
                ConfigLoader.load(
                    Map.of("embedded-redis", "/no/such/valkey-server"), Map.of(), null))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "--embedded-redis / HOURGLASS_EMBEDDED_REDIS / embedded-redis: is"
                + " '/no/such/valkey-server': give auto, bundled or the path of a redis-server or"
                + " valkey-server executable");
  }
}
