package dev.hourglass.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HelpTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "enqueue",
        "get",
        "cancel",
        "reschedule",
        "stats",
        "queues",
        "jobs",
        "pause",
        "resume",
        "limits",
        "delete",
        "claim",
        "ack",
        "nack",
        "dead",
        "dead list",
        "dead requeue",
        "dead purge",
        "history"
      })
  void everyClientCommandHasExamplesAndTheExitCodes(String command) {
    Cli.Result result = Cli.run((command + " --help").split(" "));

    assertThat(result.exitCode()).isZero();
    assertThat(result.out())
        .contains("Usage: hourglass " + command)
        .contains("Examples:")
        .contains("  hourglass " + command)
        .contains("Exit codes:")
        .contains("  5  server unreachable");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "enqueue",
        "get",
        "cancel",
        "reschedule",
        "stats",
        "queues",
        "jobs",
        "pause",
        "resume",
        "limits",
        "delete",
        "claim",
        "ack",
        "nack",
        "dead list",
        "history"
      })
  void everyClientCommandHasTheCommonOptions(String command) {
    String help = Cli.run((command + " --help").split(" ")).out();

    assertThat(help)
        .contains("--server=URL")
        .contains("--token=TOKEN")
        .contains("--json")
        .contains("--timeout=DURATION")
        .contains("http://127.0.0.1:8080");
  }

  @ParameterizedTest
  @ValueSource(strings = {"--help", "help"})
  void theLauncherListsTheCommandsAndTheExitCodes(String help) {
    Cli.Result result = Cli.run(help);

    assertThat(result.exitCode()).isZero();
    assertThat(result.out())
        .contains("enqueue", "get", "cancel", "reschedule", "stats", "dead", "server")
        .contains("queues", "jobs", "pause", "resume", "delete", "claim", "ack", "nack")
        .contains("Exit codes of the client commands")
        .contains("  4  conflict (409");
  }
}
