package dev.hourglass.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RedisBinaryTest {

  @Test
  void extractsTheJarsBinaryOncePerJvm() {
    Path first = RedisBinary.jarBinary();

    assertThat(first).isSameAs(RedisBinary.jarBinary());
    assertThat(Files.isExecutable(first)).isTrue();
    assertThat(first.getFileName().toString()).startsWith(RedisBinary.resourceName());
  }

  @Test
  void theDefaultIsThePropertysBinaryWhenSetElseTheJars() {
    String override = System.getProperty(RedisBinary.OVERRIDE_PROPERTY);

    assertThat(RedisBinary.path())
        .isEqualTo(override != null ? Path.of(override) : RedisBinary.jarBinary());
  }

  @Test
  void theJarsBinaryIsRedis62() {
    RedisExecutable jar = RedisExecutable.of(RedisBinary.jarBinary(), "test");

    assertThat(jar.product()).isEqualTo("Redis");
    assertThat(jar.version()).startsWith("6.2.");
  }
}
