package dev.hourglass.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * How {@code INFO server} replies are read; the servers themselves are run by {@code
 * RedisVersionTest} (6.0.5, refused) and by the whole suite (6.2, 7.0, Valkey 8 in CI).
 */
class ServerVersionTest {

  @Test
  void readsRedis() {
    ServerVersion v =
        ServerVersion.parse("# Server\r\nredis_version:6.0.5\r\nredis_mode:standalone\r\n").get();

    assertThat(v.toString()).isEqualTo("Redis 6.0.5");
    assertThat(v.supported()).isFalse();
    assertThat(ServerVersion.parse("redis_version:6.2.11\r\n").get().supported()).isTrue();
    assertThat(ServerVersion.parse("redis_version:10.0.0\r\n").get().supported()).isTrue();
    assertThat(ServerVersion.parse("redis_version:5.0.14\r\n").get().supported()).isFalse();
  }

  @Test
  void readsValkeyByItsOwnVersionAndJudgesItByItsRedisVersion() {
    // What Debian's valkey-server 8.0.1 answers (the first lines of INFO server).
    String info =
        "# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\nvalkey_version:8.0.1\r\n"
            + "redis_git_sha1:00000000\r\nserver_mode:standalone\r\n";

    ServerVersion v = ServerVersion.parse(info).get();

    assertThat(v.product()).isEqualTo("Valkey");
    assertThat(v.version()).isEqualTo("8.0.1");
    assertThat(v.toString()).isEqualTo("Valkey 8.0.1 (redis_version 7.2.4)");
    assertThat(v.supported()).isTrue();
  }

  @Test
  void aServerThatDoesNotSayItsVersionIsNotJudged() {
    assertThat(ServerVersion.parse("# Server\r\nuptime_in_seconds:3\r\n")).isEmpty();
    assertThat(ServerVersion.parse("redis_version:unknown\r\n").get().supported()).isTrue();
  }
}
