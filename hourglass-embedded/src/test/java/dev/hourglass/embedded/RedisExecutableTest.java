package dev.hourglass.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The executables a server can run, and moving a persistent data directory between them: the
 * bundled Redis 6.2 and an installed Valkey 8 (Debian's valkey-server, which .ci/run installs; the
 * tests that need it are skipped where it is missing).
 */
class RedisExecutableTest {
  private static final Path VALKEY = Path.of("/usr/bin/valkey-server");

  @Test
  void asksABinaryForItsVersion() {
    RedisExecutable jar = RedisExecutable.of(RedisBinary.jarBinary(), "why");

    assertThat(jar.path()).isEqualTo(RedisBinary.jarBinary());
    assertThat(jar.major()).isEqualTo(6);
    assertThat(jar.reason()).isEqualTo("why");
    assertThat(jar.describe()).startsWith("Redis 6.2.").endsWith("(" + jar.path() + ")");
  }

  @Test
  void refusesWhatIsNoRedis() {
    assertThatThrownBy(() -> RedisExecutable.of(Path.of("/no/such/redis-server"), "x"))
        .isInstanceOf(RedisServerException.class)
        .hasMessage("/no/such/redis-server is not an executable file");
    assertThatThrownBy(() -> RedisExecutable.of(Path.of("/bin/true"), "x"))
        .isInstanceOf(RedisServerException.class)
        .hasMessageStartingWith("/bin/true --version said '")
        .hasMessageEndingWith("', not '<product> server v=<version>'");
  }

  @Test
  void thePreferredIsAnInstalledValkey8ElseTheDefault() {
    RedisExecutable preferred = RedisExecutable.preferred();

    if (System.getProperty(RedisBinary.OVERRIDE_PROPERTY) != null) {
      assertThat(preferred.path()).isEqualTo(RedisBinary.path());
    } else if (Files.isExecutable(VALKEY) && RedisExecutable.of(VALKEY, "").major() >= 8) {
      assertThat(preferred.product()).isEqualTo("Valkey");
      assertThat(preferred.reason()).startsWith("installed valkey-server on PATH");
    } else {
      assertThat(preferred.path()).isEqualTo(RedisBinary.jarBinary());
      assertThat(preferred.reason()).contains("bundled");
    }
  }

  @Test
  void valkeyTakesOverTheAofOfTheBundledRedisAndTheBundledRedisRefusesItsAof() throws Exception {
    Assumptions.assumeTrue(Files.isExecutable(VALKEY), "no " + VALKEY);
    Path dir = Files.createTempDirectory("hourglass-redis-test-");
    try {
      try (RedisServer bundled =
          RedisServer.builder().binary(RedisBinary.jarBinary()).persistent().dataDir(dir).build()) {
        bundled.start();
        bundled.command("SET", "job", "kept");
      }
      try (RedisServer valkey =
          RedisServer.builder().binary(VALKEY).persistent().dataDir(dir).build()) {
        valkey.start();
        assertThat(valkey.command("GET", "job")).isEqualTo("kept");
        assertThat(valkey.command("INFO", "server")).contains("valkey_version:");
      }

      RedisServer back =
          RedisServer.builder().binary(RedisBinary.jarBinary()).persistent().dataDir(dir).build();
      assertThatThrownBy(back::start)
          .isInstanceOf(RedisServerException.class)
          .hasMessageContaining(dir.resolve("appendonlydir") + " was written by Redis 7.0 or later")
          .hasMessageContaining("cannot read it and would start empty");
      back.close();
    } finally {
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
