package dev.hourglass.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RedisServerPersistenceTest {

  @Test
  void persistentServerWritesAnAofFsyncedAlways() {
    try (RedisServer redis = RedisServer.builder().persistent().build()) {
      redis.start();

      assertThat(redis.isPersistent()).isTrue();
      assertThat(redis.command("CONFIG", "GET", "appendonly")).isEqualTo("appendonly\nyes");
      assertThat(redis.command("CONFIG", "GET", "appendfsync")).isEqualTo("appendfsync\nalways");
    }
  }

  @Test
  void dataSurvivesStopAndStart() {
    try (RedisServer redis = RedisServer.builder().persistent().build()) {
      redis.start();
      int port = redis.port();
      redis.command("SET", "job:1", "due");

      redis.stop();
      redis.start();

      assertThat(redis.port()).isEqualTo(port);
      assertThat(redis.command("GET", "job:1")).isEqualTo("due");
    }
  }

  @Test
  void dataWrittenBeforeAKillSurvivesTheRestart() {
    try (RedisServer redis = RedisServer.builder().persistent().build()) {
      redis.start();
      Path dataDir = redis.dataDir();
      for (int i = 0; i < 100; i++) {
        redis.command("ZADD", "due", Integer.toString(i), "job:" + i);
      }
      long pid = redis.pid();

      redis.kill();

      assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
      // Redis 6.2 writes one appendonly.aof, Redis 7.0 and later (and Valkey) a directory.
      assertThat(
              Files.exists(dataDir.resolve("appendonly.aof"))
                  || Files.isDirectory(dataDir.resolve(ServerSettings.AOF_DIRECTORY)))
          .isTrue();
      redis.start();
      assertThat(redis.dataDir()).isEqualTo(dataDir);
      assertThat(redis.command("ZCARD", "due")).isEqualTo("100");
      assertThat(redis.command("ZSCORE", "due", "job:99")).isEqualTo("99");
    }
  }

  @Test
  void aofInASharedDataDirIsHandedToTheNextServer() throws Exception {
    Path dir = Files.createTempDirectory("hourglass-redis-test-");
    try {
      try (RedisServer first = RedisServer.builder().persistent().dataDir(dir).build()) {
        first.start();
        first.command("SET", "k", "v");
      }
      try (RedisServer second = RedisServer.builder().persistent().dataDir(dir).build()) {
        second.start();
        assertThat(second.command("GET", "k")).isEqualTo("v");
      }
    } finally {
      ShutdownCleanup.deleteRecursively(dir);
    }
  }
}
