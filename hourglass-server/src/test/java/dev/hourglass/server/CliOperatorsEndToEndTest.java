package dev.hourglass.server;

import static dev.hourglass.server.CliEndToEndTest.cli;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hourglass.server.CliEndToEndTest.Run;
import dev.hourglass.server.cli.StandardInput;
import dev.hourglass.testing.RedisExtension;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The operator commands (queues, jobs, pause, resume, delete, claim, ack, nack, stats --watch)
 * against a real server on a real Redis; each test uses queues of its own.
 */
class CliOperatorsEndToEndTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static TestServer s;
  private static String url;

  @BeforeAll
  static void startServer() {
    s = TestServer.startQuickStop(redis.uri());
    url = s.baseUrl();
  }

  @AfterAll
  static void stopServer() {
    s.close();
  }

  private static void enqueue(String queue, String job) {
    assertThat(s.post("/v1/queues/" + queue + "/jobs", job).status()).as(job).isEqualTo(201);
  }

  private static JsonNode json(Run run) throws IOException {
    assertThat(run.code()).as(run.err()).isZero();
    return JSON.readTree(run.out());
  }

  @Test
  void queuesListsEveryQueueWithItsCountsAndWhetherPaused() throws IOException {
    enqueue("ops-queues", "{\"id\":\"a\",\"payload\":1,\"delayMs\":3600000}");
    enqueue("ops-queues", "{\"id\":\"b\",\"payload\":2}");

    Run run = cli(url, "queues");

    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out())
        .startsWith("QUEUE ")
        .contains("DELAYED  READY  INFLIGHT  DEAD  PAUSED")
        .containsPattern("\\nops-queues +1 +1 +0 +0 +no\\n");
    JsonNode queues = json(cli(url, "queues", "--json")).get("queues");
    assertThat(queues.findValuesAsText("name")).contains("ops-queues");
  }

  @Test
  void jobsListsOneStatePageByPageOrAll() throws IOException {
    for (int i = 1; i <= 3; i++) {
      enqueue(
          "ops-jobs",
          "{\"id\":\"d-" + i + "\",\"payload\":{\"n\":" + i + "},\"delayMs\":" + i * 3600000 + "}");
    }
    enqueue("ops-jobs", "{\"id\":\"r-1\",\"payload\":\"now\"}");

    Run page = cli(url, "jobs", "ops-jobs", "--state", "delayed", "--limit", "2");
    assertThat(page.code()).as(page.err()).isZero();
    List<String> lines = page.out().lines().toList();
    assertThat(lines.get(0)).startsWith("ID ").contains("STATE", "DUE", "ATTEMPTS", "PAYLOAD");
    assertThat(lines.get(1)).startsWith("d-1 ").contains("delayed", "0/5", "{\"n\":1}", " -");
    assertThat(lines.get(2)).startsWith("d-2 ");
    assertThat(lines.get(3))
        .startsWith("more: hourglass jobs ops-jobs --state delayed --limit 2 --cursor ");
    String cursor = lines.get(3).substring(lines.get(3).lastIndexOf(' ') + 1);

    Run next = cli(url, "jobs", "ops-jobs", "--state", "delayed", "--cursor", cursor);
    assertThat(next.out()).contains("d-3").doesNotContain("d-1", "more:");

    JsonNode all =
        json(cli(url, "jobs", "ops-jobs", "--state", "delayed", "--limit", "1", "--all", "--json"));
    assertThat(all.get("jobs").findValuesAsText("id")).containsExactly("d-1", "d-2", "d-3");
    assertThat(all.get("next").isNull()).isTrue();

    assertThat(cli(url, "jobs", "ops-jobs", "--state", "ready").out())
        .contains("r-1", "\"now\"")
        .doesNotContain("d-1");
    assertThat(cli(url, "jobs", "ops-jobs", "--state", "dead").out())
        .isEqualTo("no dead jobs in ops-jobs\n");
  }

  @Test
  void deadRequeueOfAJobThatIsNotDeadSaysItsState() {
    enqueue("ops-requeue", "{\"id\":\"r-1\",\"payload\":1}");

    Run live = cli(url, "dead", "requeue", "ops-requeue", "r-1");
    Run none = cli(url, "dead", "requeue", "ops-requeue", "nope");

    assertThat(live.code()).as(live.err()).isEqualTo(4);
    assertThat(live.err())
        .isEqualTo(
            "error: job_state: cannot requeue job r-1 in queue ops-requeue: it is ready"
                + " (only a dead job can be requeued)\n");
    assertThat(none.code()).as(none.err()).isEqualTo(3);
    assertThat(none.err())
        .isEqualTo("error: job_not_found: queue ops-requeue has no job with id nope\n");
  }

  @Test
  void pauseStopsClaimsAndResumeLetsThemThrough() throws IOException {
    enqueue("ops-pause", "{\"id\":\"p-1\",\"payload\":1}");

    Run pause = cli(url, "pause", "ops-pause");
    assertThat(pause.code()).as(pause.err()).isZero();
    assertThat(pause.out())
        .isEqualTo("ops-pause: paused (delayed 0, ready 1, inflight 0, dead 0)\n");
    assertThat(cli(url, "queues").out()).containsPattern("\\nops-pause +0 +1 +0 +0 +yes\\n");
    assertThat(cli(url, "claim", "ops-pause").out()).isEqualTo("no job to claim in ops-pause\n");

    Run resume = cli(url, "resume", "ops-pause", "--json");
    assertThat(json(resume).get("paused").asBoolean()).isFalse();
    assertThat(cli(url, "claim", "ops-pause").out()).contains("p-1");
  }

  @Test
  void limitsAreSetShownAndCleared() throws IOException {
    for (int i = 0; i < 3; i++) {
      enqueue("ops-limits", "{\"id\":\"l-" + i + "\",\"payload\":1}");
    }

    Run set = cli(url, "limits", "ops-limits", "--rate", "100/1s", "--concurrency", "1");
    assertThat(set.code()).as(set.err()).isZero();
    assertThat(set.out()).isEqualTo("ops-limits: rate 100/1000ms, concurrency 1; held back 2\n");
    assertThat(cli(url, "claim", "ops-limits", "--max", "5").out()).contains("l-0");
    assertThat(cli(url, "stats", "ops-limits").out())
        .containsPattern("limits.rate.max: +100")
        .containsPattern("limits.concurrency: +1")
        .containsPattern("heldBack: +2");
    JsonNode shown = json(cli(url, "limits", "ops-limits", "--json"));
    assertThat(shown.get("limits").get("rate").get("periodMs").asLong()).isEqualTo(1000);

    Run clear = cli(url, "limits", "ops-limits", "--clear");
    assertThat(clear.out()).isEqualTo("ops-limits: no limits; held back 0\n");
    assertThat(cli(url, "limits", "ops-limits").out()).isEqualTo(clear.out());
  }

  @Test
  void deleteRefusesAQueueWithJobsUnlessForced() throws IOException {
    enqueue("ops-delete", "{\"id\":\"x-1\",\"payload\":1,\"delayMs\":3600000}");
    enqueue("ops-delete", "{\"id\":\"x-2\",\"payload\":2}");

    Run refused = cli(url, "delete", "ops-delete");
    assertThat(refused.code()).as("409 queue_not_empty is a conflict").isEqualTo(4);
    assertThat(refused.err()).startsWith("error: queue_not_empty: ").contains("use --force");
    assertThat(refused.out()).isEmpty();

    Run notConfirmed = cli(url, "delete", "ops-delete", "--force");
    assertThat(notConfirmed.code()).as("stdin is no terminal to ask on").isEqualTo(2);
    assertThat(s.get("/v1/queues/ops-delete/jobs/x-1").status()).isEqualTo(200);

    Run forced = cli(url, "delete", "ops-delete", "--force", "--yes");
    assertThat(forced.code()).as(forced.err()).isZero();
    assertThat(forced.out()).isEqualTo("deleted ops-delete and 2 jobs\n");
    assertThat(cli(url, "stats", "ops-delete").code()).as("gone").isEqualTo(3);

    assertThat(s.call("PUT", "/v1/queues/ops-empty", "{}").status()).isEqualTo(201);
    Run empty = cli(url, "delete", "ops-empty");
    assertThat(empty.code()).as(empty.err()).isZero();
    assertThat(empty.out()).isEqualTo("deleted ops-empty\n");
  }

  @Test
  void claimAckAndNack() throws IOException {
    enqueue("ops-claim", "{\"id\":\"c-1\",\"payload\":{\"id\":\"c-1\"}}");
    Run claim = cli(url, "claim", "ops-claim", "--max", "1", "--wait", "2s");
    assertThat(claim.code()).as(claim.err()).isZero();
    assertThat(claim.out()).contains("ID", "ATTEMPT", "RECEIPT", "c-1", "{\"id\":\"c-1\"}");
    String receipt1 = claim.out().lines().skip(1).findFirst().orElseThrow().split(" +")[2];
    enqueue("ops-claim", "{\"id\":\"c-2\",\"payload\":2}");
    enqueue("ops-claim", "{\"id\":\"c-3\",\"payload\":3}");
    JsonNode jobs =
        json(cli(url, "claim", "ops-claim", "--max", "2", "--visibility", "1m", "--json"))
            .get("jobs");
    assertThat(jobs.findValuesAsText("id")).containsExactlyInAnyOrder("c-2", "c-3");
    String receipt2 = receiptOf(jobs, "c-2");
    String receipt3 = receiptOf(jobs, "c-3");

    Run stale = cli(url, "ack", "ops-claim", "c-1", "--receipt", "not-the-receipt");
    assertThat(stale.code()).as(stale.err()).isEqualTo(4);
    assertThat(stale.err()).startsWith("error: stale_receipt: ");
    Run ack = cli(url, "ack", "ops-claim", "c-1", "--receipt", receipt1);
    assertThat(ack.code()).as(ack.err()).isZero();
    assertThat(ack.out()).isEqualTo("acked c-1 in ops-claim\n");
    assertThat(s.get("/v1/queues/ops-claim/jobs/c-1").status()).isEqualTo(404);

    Run nack =
        cli(
            url,
            "nack",
            "ops-claim",
            "c-2",
            "--receipt",
            receipt2,
            "--delay",
            "1h",
            "--error",
            "e");
    assertThat(nack.code()).as(nack.err()).isZero();
    assertThat(nack.out()).isEqualTo("nacked c-2 in ops-claim\n");
    JsonNode c2 = s.get("/v1/queues/ops-claim/jobs/c-2").json();
    assertThat(c2.get("state").asText()).isEqualTo("delayed");
    assertThat(c2.get("lastError").asText()).isEqualTo("e");

    Run dead =
        cli(url, "nack", "ops-claim", "c-3", "--receipt", receipt3, "--dead", "--error", "boom");
    assertThat(dead.out()).isEqualTo("nacked c-3 in ops-claim: moved to the dead jobs\n");
    assertThat(s.get("/v1/queues/ops-claim/jobs/c-3").json().get("state").asText())
        .isEqualTo("dead");
  }

  @Test
  void statsWatchPrintsOneLinePerReadWithRatesWhenStdoutIsNoTerminal() throws IOException {
    enqueue("ops-watch", "{\"id\":\"w-1\",\"payload\":1,\"delayMs\":3600000}");

    Run watch = cli(url, "stats", "ops-watch", "--watch", "--count", "3", "--interval", "0");

    assertThat(watch.code()).as(watch.err()).isZero();
    List<String> lines = watch.out().lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0))
        .matches("\\d{4}-\\d\\d-\\d\\dT\\S+Z ops-watch delayed=1 ready=0 inflight=0 dead=0 .*")
        .contains("paused=no", "enqueued/s=- delivered/s=- acked/s=- retried/s=- dead/s=-");
    assertThat(lines.get(2))
        .containsPattern("enqueued/s=\\d+\\.\\d delivered/s=\\d+\\.\\d acked/s=\\d+\\.\\d");

    Run json =
        cli(url, "stats", "ops-watch", "--watch", "--count", "2", "--interval", "0", "--json");
    assertThat(json.out().lines()).hasSize(2);
    for (String line : json.out().lines().toList()) {
      assertThat(JSON.readTree(line).get("name").asText()).isEqualTo("ops-watch");
    }
  }

  @Test
  void statsWatchRedrawsTheScreenOnATerminal() {
    enqueue("ops-redraw", "{\"id\":\"w-1\",\"payload\":1}");
    StringWriter out = new StringWriter();

    int code =
        Main.run(
            StandardInput.of("", true),
            new PrintWriter(out),
            new PrintWriter(new StringWriter()),
            "stats",
            "ops-redraw",
            "--watch",
            "--count",
            "2",
            "--interval",
            "0",
            "--server",
            url);

    assertThat(code).isZero();
    String clear = "\033[H\033[2J";
    String[] frames = out.toString().split(Pattern.quote(clear), -1);
    assertThat(frames).as("two frames, each after a clear screen").hasSize(3);
    assertThat(frames[0]).isEmpty();
    assertThat(frames[1])
        .startsWith("ops-redraw at ")
        .contains("DELAYED  READY  INFLIGHT  DEAD  PAUSED", "ENQUEUED/S  DELIVERED/S");
    assertThat(frames[2]).containsPattern("\\n\\d+\\.\\d +\\d+\\.\\d +\\d+\\.\\d");
  }

  @Test
  void statsWatchStopsWithoutErrorWhenStdoutIsClosed() {
    enqueue("ops-closed", "{\"id\":\"w-1\",\"payload\":1}");
    ClosedOutput closed = new ClosedOutput();

    int code =
        Main.run(
            StandardInput.of("", false),
            new PrintWriter(closed),
            new PrintWriter(new StringWriter()),
            "stats",
            "ops-closed",
            "--watch",
            "--count",
            "1000",
            "--interval",
            "0",
            "--server",
            url);

    assertThat(code).isZero();
    assertThat(closed.writes).as("one read's output, then it stopped").hasSizeLessThan(5);
  }

  @ParameterizedTest
  @ValueSource(strings = {"a b", ".", "..", "a/b", "orders:eu"})
  void aBadQueueNameIsExit2NotTheServersRefusal(String queue) {
    for (String[] args :
        List.of(
            new String[] {"jobs", queue, "--state", "ready"},
            new String[] {"pause", queue},
            new String[] {"delete", queue},
            new String[] {"claim", queue})) {
      Run run = cli(url, args);
      assertThat(run.code()).as(String.join(" ", args) + ": " + run.err()).isEqualTo(2);
      assertThat(run.err()).contains("is not a queue name");
    }
    Run tooLong = cli(url, "stats", "q".repeat(101), "--watch");
    assertThat(tooLong.code()).as(tooLong.err()).isEqualTo(2);
  }

  private static String receiptOf(JsonNode deliveries, String id) {
    for (JsonNode delivery : deliveries) {
      if (delivery.get("id").asText().equals(id)) {
        return delivery.get("receipt").asText();
      }
    }
    throw new AssertionError(id + " not in " + deliveries);
  }

  /** Stdout whose reader went away (a closed pipe): every write fails, and is counted. */
  private static final class ClosedOutput extends Writer {
    final List<String> writes = new ArrayList<>();

    @Override
    public void write(char[] chars, int offset, int length) throws IOException {
      writes.add(new String(chars, offset, length));
      throw new IOException("Broken pipe");
    }

    @Override
    public void flush() throws IOException {
      throw new IOException("Broken pipe");
    }

    @Override
    public void close() {}
  }
}
