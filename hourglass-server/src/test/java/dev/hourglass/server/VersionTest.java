package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.server.cli.StandardInput;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every command's {@code -V} and {@code --version} print the build's version ({@code
 * hourglass.version}, set by the pom); LauncherTest checks the same through {@code ./hourglass} and
 * {@code java -jar}.
 */
class VersionTest {
  static final String VERSION = System.getProperty("hourglass.version");

  @ParameterizedTest
  @ValueSource(
      strings = {
        "--version",
        "-V",
        "server --version",
        "server -V",
        "enqueue -V",
        "dead requeue -V"
      })
  void printsTheBuildsVersion(String args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int code =
        Main.run(
            StandardInput.of("", false),
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            args.split(" "));

    assertThat(VERSION).as("-Dhourglass.version from the pom").isNotBlank();
    assertThat(code).as(err.toString()).isZero();
    assertThat(out).hasToString("hourglass " + VERSION + System.lineSeparator());
  }
}
