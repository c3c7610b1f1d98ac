package dev.hourglass.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RedisBinaryTest {

  @Test
  void extractsAnExecutableOncePerJvm() {
    Path first = RedisBinary.path();

    assertThat(first).isSameAs(RedisBinary.path());
    assertThat(Files.isExecutable(first)).isTrue();
    assertThat(first.getFileName().toString()).startsWith(RedisBinary.resourceName());
  }
}
