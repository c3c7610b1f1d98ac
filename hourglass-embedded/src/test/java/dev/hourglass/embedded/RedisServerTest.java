package dev.hourglass.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class RedisServerTest {

  @Test
  void startsAndAnswersPing() {
    try (RedisServer redis = RedisServer.create()) {
      redis.start();

      assertThat(redis.isRunning()).isTrue();
      assertThat(redis.command("PING")).isEqualTo("PONG");
      assertThat(redis.host()).isEqualTo("127.0.0.1");
      assertThat(redis.uri()).isEqualTo("redis://127.0.0.1:" + redis.port());
      assertThat(redis.uris()).containsExactly(redis.uri());
      assertThat(ProcessHandle.of(redis.pid())).isPresent();
    }
  }

  @Test
  void runsInMemoryWithTheExpectedConfiguration() {
    try (RedisServer redis = RedisServer.create()) {
      redis.start();

      assertThat(redis.isPersistent()).isFalse();
      assertThat(redis.command("CONFIG", "GET", "appendonly")).isEqualTo("appendonly\nno");
      assertThat(redis.command("CONFIG", "GET", "save")).isEqualTo("save\n");
      assertThat(redis.command("CONFIG", "GET", "bind")).isEqualTo("bind\n127.0.0.1");
      assertThat(redis.command("CONFIG", "GET", "dir"))
          .isEqualTo("dir\n" + redis.dataDir().toAbsolutePath());
      RedisExecutable binary = RedisExecutable.bundled();
      assertThat(redis.command("INFO", "server"))
          .contains(binary.product().toLowerCase(Locale.ROOT) + "_version:" + binary.version());
    }
  }

  @Test
  void twoServersGetDifferentPorts() {
    try (RedisServer first = RedisServer.create();
        RedisServer second = RedisServer.create()) {
      first.start();
      second.start();

      assertThat(first.port()).isNotEqualTo(second.port());
      assertThat(first.dataDir()).isNotEqualTo(second.dataDir());
      first.command("SET", "where", "first");
      assertThat(second.command("GET", "where")).isNull();
    }
  }

  @Test
  void decodesReplies() {
    try (RedisServer redis = RedisServer.create()) {
      redis.start();

      assertThat(redis.command("SET", "k", "välue")).isEqualTo("OK");
      assertThat(redis.command("GET", "k")).isEqualTo("välue");
      assertThat(redis.command("GET", "missing")).isNull();
      assertThat(redis.command("DBSIZE")).isEqualTo("1");
      redis.command("RPUSH", "list", "a", "", "c");
      assertThat(redis.command("LRANGE", "list", "0", "-1")).isEqualTo("a\n\nc");
      assertThatThrownBy(() -> redis.command("NOSUCHCOMMAND"))
          .isInstanceOf(RedisCommandException.class)
          .extracting(e -> ((RedisCommandException) e).errorReply())
          .asString()
          .startsWith("ERR unknown command");
    }
  }

  @Test
  void flushAllDeletesEveryKey() {
    try (RedisServer redis = RedisServer.create()) {
      redis.start();
      redis.command("SET", "a", "1");
      redis.command("SET", "b", "2");
      redis.command("MOVE", "b", "1");
      assertThat(redis.command("INFO", "keyspace")).contains("db0:keys=1", "db1:keys=1");

      redis.flushAll();

      assertThat(redis.command("INFO", "keyspace")).doesNotContain("db0:", "db1:");
    }
  }

  @Test
  void restartReusesPortAndDataDirButInMemoryDataIsGone() {
    try (RedisServer redis = RedisServer.create()) {
      redis.start();
      int port = redis.port();
      long firstPid = redis.pid();
      redis.command("SET", "k", "v");

      redis.stop();
      assertThat(redis.isRunning()).isFalse();
      assertThat(ProcessHandle.of(firstPid).filter(ProcessHandle::isAlive)).isEmpty();
      redis.start();

      assertThat(redis.port()).isEqualTo(port);
      assertThat(redis.pid()).isNotEqualTo(firstPid);
      assertThat(redis.command("GET", "k")).isNull();
    }
  }

  @Test
  void stopAndKillAreIdempotentAndStartIsANoOpWhenRunning() {
    try (RedisServer redis = RedisServer.create()) {
      redis.stop();
      redis.kill();
      redis.start();
      long pid = redis.pid();
      redis.start();
      assertThat(redis.pid()).isEqualTo(pid);
      redis.stop();
      redis.stop();
      redis.kill();
      assertThat(redis.isRunning()).isFalse();
    }
  }

  @Test
  void closeDeletesItsOwnDataDirAndCannotRestart() {
    RedisServer redis = RedisServer.create();
    redis.start();
    Path dir = redis.dataDir();
    assertThat(dir.resolve(ServerSettings.LOG_FILE)).exists();

    redis.close();
    redis.close();

    assertThat(dir).doesNotExist();
    assertThatThrownBy(redis::start).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void closeKeepsACallerSuppliedDataDir() throws Exception {
    Path dir = Files.createTempDirectory("hourglass-redis-test-");
    try {
      try (RedisServer redis = RedisServer.builder().dataDir(dir.resolve("sub")).build()) {
        redis.start();
        assertThat(redis.dataDir()).isEqualTo(dir.resolve("sub"));
      }
      assertThat(dir.resolve("sub").resolve(ServerSettings.LOG_FILE)).exists();
    } finally {
      ShutdownCleanup.deleteRecursively(dir);
    }
  }

  @Test
  void passesExtraArguments() {
    try (RedisServer redis = RedisServer.builder().args("--maxmemory", "10mb").build()) {
      redis.start();

      assertThat(redis.command("CONFIG", "GET", "maxmemory")).isEqualTo("maxmemory\n10485760");
    }
  }

  @Test
  void rejectsManagedOptions() {
    assertThatThrownBy(() -> RedisServer.builder().args("--port", "1"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RedisServer.builder().args("--dir", "/tmp"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void portIsUnknownBeforeTheFirstStart() {
    try (RedisServer redis = RedisServer.create()) {
      assertThatThrownBy(redis::port).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(redis::pid).isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void restartsAServerThatDiedOnItsOwn() throws Exception {
    try (RedisServer redis = RedisServer.create()) {
      redis.start();
      ProcessHandle handle = ProcessHandle.of(redis.pid()).orElseThrow();
      handle.destroyForcibly();
      handle.onExit().get();
      assertThat(redis.isRunning()).isFalse();

      redis.start();

      assertThat(redis.command("PING")).isEqualTo("PONG");
    }
  }
}
