package dev.hourglass.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Parsing and rendering of the operator commands (queues, jobs, pause, resume, delete, claim, ack,
 * nack, stats --watch), without a server: every run here that gets past parsing would try the
 * closed port {@link #NOWHERE} and exit 5, so an exit 2 shows it stopped before any request.
 */
class OperatorCommandsTest {
  static final String NOWHERE = "http://127.0.0.1:1";

  @ParameterizedTest
  @ValueSource(
      strings = {
        "queues-name",
        "jobs --state ready",
        "pause",
        "resume",
        "limits",
        "delete",
        "claim",
        "ack --receipt r ID",
        "nack --receipt r ID",
        "stats",
        "get ID",
        "cancel ID",
        "reschedule ID --delay 1s",
        "enqueue --text x",
        "dead list",
        "dead requeue ID",
        "dead purge --yes"
      })
  void aBadQueueNameIsAUsageErrorBeforeAnyRequest(String command) {
    for (String bad : List.of("a b", ".", "..", "x".repeat(101), "orders:eu", "a/b")) {
      Cli.Result result = Cli.run(args(command, bad));

      assertThat(result.exitCode()).as(bad + ": " + result).isEqualTo(ExitCodes.USAGE);
      assertThat(result.err())
          .as(bad)
          .contains("'" + bad + "' is not a queue name: a queue name is 1 to 100 of");
    }
  }

  /** {@code command} with QUEUE as its first positional argument, then the rest. */
  private static String[] args(String command, String queue) {
    List<String> words = new java.util.ArrayList<>(List.of(command.split(" ")));
    if (words.get(0).equals("queues-name")) {
      words.set(0, "stats"); // queues takes no QUEUE; stats --watch does
      words.add("--watch");
    }
    int at = words.get(0).equals("dead") ? 2 : 1;
    words.add(at, queue);
    words.addAll(List.of("--server", NOWHERE));
    return words.toArray(String[]::new);
  }

  @Test
  void aGoodQueueNameGetsToTheServer() {
    assertThat(Cli.run("pause", "orders-eu_1.x", "--server", NOWHERE).exitCode())
        .isEqualTo(ExitCodes.UNAVAILABLE);
    assertThat(Cli.run("jobs", "q".repeat(100), "--state", "dead", "--server", NOWHERE).exitCode())
        .isEqualTo(ExitCodes.UNAVAILABLE);
  }

  @Test
  void malformedLimitsAreUsageErrorsBeforeAnyRequest() {
    for (String[] bad :
        List.of(
            new String[] {"--rate", "100"},
            new String[] {"--rate", "0/1s"},
            new String[] {"--rate", "5/2d"},
            new String[] {"--rate", "5/soon"},
            new String[] {"--concurrency", "0"},
            new String[] {"--clear", "--concurrency", "2"})) {
      List<String> args = new java.util.ArrayList<>(List.of("limits", "q", "--server", NOWHERE));
      args.addAll(List.of(bad));
      Cli.Result result = Cli.run(args.toArray(String[]::new));
      assertThat(result.exitCode())
          .as(String.join(" ", bad) + ": " + result)
          .isEqualTo(ExitCodes.USAGE);
    }
  }

  @Test
  void missingOrMalformedOptionsAreUsageErrors() {
    assertThat(Cli.run("jobs", "q", "--server", NOWHERE).err()).contains("--state");
    assertThat(Cli.run("jobs", "q", "--state", "done", "--server", NOWHERE).err())
        .contains("delayed, ready, inflight, dead");
    assertThat(Cli.run("ack", "q", "id", "--server", NOWHERE).err()).contains("--receipt");
    assertThat(Cli.run("nack", "q", "id", "--receipt", "r", "--delay", "soon").exitCode())
        .isEqualTo(ExitCodes.USAGE);
    assertThat(Cli.run("claim", "q", "--wait", "-1s").exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(Cli.run("queues", "extra").exitCode()).isEqualTo(ExitCodes.USAGE);
  }

  @Test
  void watchOptionsAreChecked() {
    assertThat(Cli.run("stats", "--watch", "--server", NOWHERE).err())
        .contains("--watch needs a QUEUE");
    assertThat(Cli.run("stats", "q", "--count", "3", "--server", NOWHERE).err())
        .contains("--interval and --count go with --watch");
    assertThat(Cli.run("stats", "q", "--interval", "1s", "--server", NOWHERE).exitCode())
        .isEqualTo(ExitCodes.USAGE);
    assertThat(Cli.run("stats", "q", "--watch", "--count", "0", "--server", NOWHERE).err())
        .contains("--count must be 1 or more");
  }

  @Test
  void deleteForceWithoutATerminalOrYesIsRefused() {
    Cli.Result result = Cli.run("delete", "q", "--force", "--server", NOWHERE);

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).contains("not deleted: stdin is not a terminal", "--yes");
  }

  @Test
  void deleteForceAsksAndStopsWithoutAYes() {
    Cli.Result result =
        Cli.run(StandardInput.of("n\n", true), "delete", "q", "--force", "--server", NOWHERE);

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err())
        .contains("Delete q with all its jobs for good? [y/N] ")
        .contains("error: not deleted: not confirmed");
  }

  @Test
  void deleteForceGoesAheadOnAYes() {
    Cli.Result result =
        Cli.run(StandardInput.of("yes\n", true), "delete", "q", "--force", "--server", NOWHERE);

    assertThat(result.exitCode()).as("asked the server").isEqualTo(ExitCodes.UNAVAILABLE);
  }

  @Test
  void jobsTableShortensPayloadAndErrorAndSaysHowToGetTheNextPage() {
    JobsCommand command = new JobsCommand();
    command.queue = new QueueArgument();
    command.queue.name = "orders";
    command.state = JobsCommand.State.ready;
    command.pages = new PageOptions();
    command.pages.limit = 2;
    JsonNode page =
        Json.parse(
            "{\"jobs\":[{\"id\":\"o-1\",\"state\":\"ready\",\"runAt\":1795255200000,"
                + "\"attempts\":2,\"maxAttempts\":5,\"priority\":7,\"payload\":{\"text\":\""
                + "y".repeat(50)
                + "\"},\"lastError\":\"card\\n declined\"},"
                + "{\"id\":\"o-2\",\"state\":\"ready\",\"runAt\":1795255201000,"
                + "\"attempts\":0,\"maxAttempts\":5,\"priority\":0,\"payload\":42}],\"next\":\"c2\"}");

    assertThat(command.table(page))
        .isEqualTo(
            String.join(
                System.lineSeparator(),
                "ID   STATE  DUE                   PRIO  ATTEMPTS  PAYLOAD"
                    + "                                   LAST ERROR",
                "o-1  ready  2026-11-21T10:00:00Z  7     2/5       {\"text\":\""
                    + "y".repeat(28)
                    + "...  card declined",
                "o-2  ready  2026-11-21T10:00:01Z  0     0/5       42" + " ".repeat(40) + "-",
                "more: hourglass jobs orders --state ready --limit 2 --cursor c2"));
    assertThat(command.table(Json.parse("{\"jobs\":[],\"next\":null}")))
        .isEqualTo("no ready jobs in orders");
  }

  @Test
  void claimTableShowsWhatAckAndNackNeed() {
    ClaimCommand command = new ClaimCommand();
    command.queue = new QueueArgument();
    command.queue.name = "orders";
    JsonNode answer =
        Json.parse(
            "{\"jobs\":[{\"id\":\"o-1\",\"attempt\":1,\"receipt\":\"r-9f\","
                + "\"leaseUntil\":1795255200000,\"payload\":{\"order\":1}}]}");

    assertThat(command.table(answer))
        .isEqualTo(
            "ID   ATTEMPT  RECEIPT  LEASE UNTIL           PAYLOAD"
                + System.lineSeparator()
                + "o-1  1        r-9f     2026-11-21T10:00:00Z  {\"order\":1}");
    assertThat(command.table(Json.parse("{\"jobs\":[]}"))).isEqualTo("no job to claim in orders");
  }

  @Test
  void ratesAreTheCountersChangePerSecond() {
    JsonNode before =
        Json.parse(
            "{\"counters\":{\"enqueued\":100,\"delivered\":50,\"acked\":40,\"retried\":0,"
                + "\"dead\":7}}");
    JsonNode after =
        Json.parse("{\"counters\":{\"enqueued\":110,\"delivered\":51,\"acked\":30,\"retried\":0}}");

    assertThat(StatsWatch.rates(before, after, 2_000_000_000L))
        .as("acked went down: the queue was made again; dead is gone")
        .containsExactly("5.0", "0.5", "-", "0.0", "-");
    assertThat(StatsWatch.rates(null, after, 0)).containsExactly("-", "-", "-", "-", "-");
  }

  @Test
  void aWatchLineHasCountsPausedAndRates() {
    JsonNode queue =
        Json.parse(
            "{\"name\":\"orders\",\"delayed\":3,\"ready\":1,\"inflight\":0,\"dead\":2,"
                + "\"paused\":false}");

    assertThat(
            StatsWatch.line(
                Instant.parse("2026-11-21T10:00:00Z"),
                queue,
                List.of("5.0", "0.5", "-", "0.0", "1.0")))
        .isEqualTo(
            "2026-11-21T10:00:00Z orders delayed=3 ready=1 inflight=0 dead=2 paused=no"
                + " enqueued/s=5.0 delivered/s=0.5 acked/s=- retried/s=0.0 dead/s=1.0");
  }

  @Test
  void aWatchFrameHasTheQueueTheCountsAndTheRates() {
    JsonNode queue =
        Json.parse(
            "{\"name\":\"orders\",\"delayed\":3,\"ready\":1,\"inflight\":0,\"dead\":2,"
                + "\"paused\":true}");

    assertThat(
            StatsWatch.frame(
                Instant.parse("2026-11-21T10:00:00Z"),
                queue,
                List.of("5.0", "0.5", "-", "0.0", "1.0")))
        .isEqualTo(
            String.join(
                System.lineSeparator(),
                "orders at 2026-11-21T10:00:00Z (Ctrl-C to stop)",
                "",
                "DELAYED  READY  INFLIGHT  DEAD  PAUSED",
                "3        1      0         2     yes",
                "",
                "ENQUEUED/S  DELIVERED/S  ACKED/S  RETRIED/S  DEAD/S",
                "5.0         0.5          -        0.0        1.0"));
  }

  @Test
  void theQueueSummaryOfPauseAndResume() {
    assertThat(
            QueueText.summary(
                Json.parse(
                    "{\"name\":\"orders\",\"delayed\":3,\"ready\":1,\"inflight\":0,\"dead\":2,"
                        + "\"paused\":true}")))
        .isEqualTo("orders: paused (delayed 3, ready 1, inflight 0, dead 2)");
  }
}
