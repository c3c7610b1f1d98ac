package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Log lines by default: text when the server runs in a terminal, JSON when its output goes to a
 * pipe or a file; {@code --log-format json|text} overrides. The terminal is a real pseudo-terminal
 * from util-linux's {@code script}.
 */
class LogFormatTest {
  private static final Duration STEP = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TEXT_LINE =
      "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\S* INFO .*Hourglass listening on .*";

  @TempDir Path tmp;
  private final List<Path> dataDirs = new ArrayList<>();

  @AfterEach
  void noRedisLeftBehind() {
    dataDirs.forEach(EmbeddedRedisProcesses::killAll); // only does something when a test failed
  }

  @Test
  void autoChoosesTextForATerminalAndJsonOtherwise() {
    assertThat(LogSetup.json("auto", true)).isFalse();
    assertThat(LogSetup.json("auto", false)).isTrue();
    assertThat(LogSetup.json("json", true)).isTrue();
    assertThat(LogSetup.json("text", false)).isFalse();
  }

  @Test
  void defaultIsJsonWhenOutputIsAPipe() throws Exception {
    String line = firstListeningLine(List.of(), false);

    JsonNode json = JSON.readTree(line);
    assertThat(json.path("level").asText()).isEqualTo("INFO");
    assertThat(json.path("formattedMessage").asText()).startsWith("Hourglass listening on ");
  }

  @Test
  void defaultIsTextInATerminal() throws Exception {
    assertThat(firstListeningLine(List.of(), true)).matches(TEXT_LINE);
  }

  @Test
  void jsonWhenAskedEvenInATerminal() throws Exception {
    String line = firstListeningLine(List.of("--log-format", "json"), true);

    assertThat(JSON.readTree(line).path("formattedMessage").asText())
        .startsWith("Hourglass listening on ");
  }

  /**
   * Starts a server JVM (in a pseudo-terminal when {@code terminal}), returns its "listening" log
   * line, and stops it with SIGTERM.
   */
  private String firstListeningLine(List<String> extraArgs, boolean terminal) throws Exception {
    Path dataDir = tmp.resolve("data" + dataDirs.size());
    dataDirs.add(dataDir);
    List<String> java = new ArrayList<>();
    java.addAll(
        List.of(
            ProcessHandle.current().info().command().orElse("java"),
            "-Xmx256m",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            Main.class.getName(),
            "server",
            "--port",
            "0",
            "--data-dir",
            dataDir.toString()));
    java.addAll(extraArgs);
    List<String> command =
        terminal
            ? List.of(
                "script",
                "-qfec",
                java.stream().map(LogFormatTest::shellQuote).collect(Collectors.joining(" ")),
                "/dev/null")
            : java;
    try (ChildProcess p = ChildProcess.start(tmp, Map.of(), command)) {
      // In the terminal, standard error and output are the same terminal: script's output.
      String line =
          await("the listening line")
              .atMost(STEP)
              .until(
                  () -> listening(terminal ? p.stdout() : p.stderr()),
                  l -> {
                    assertThat(p.isAlive()).as(p.output()).isTrue();
                    return l.isPresent();
                  })
              .orElseThrow();
      ProcessHandle server =
          terminal
              ? p.process()
                  .toHandle()
                  .descendants()
                  .filter(h -> h.info().command().orElse("").endsWith("java"))
                  .findFirst()
                  .orElseThrow()
              : p.process().toHandle();
      server.destroy();
      assertThat(p.awaitExit(STEP.toSeconds(), TimeUnit.SECONDS)).as(p.output()).isNotNull();
      return line;
    }
  }

  private static Optional<String> listening(List<String> lines) {
    return lines.stream().filter(l -> l.contains("Hourglass listening on")).findFirst();
  }

  private static String shellQuote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }
}
