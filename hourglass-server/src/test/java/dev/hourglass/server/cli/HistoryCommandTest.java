package dev.hourglass.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.Delivery;
import dev.hourglass.JobSpec;
import dev.hourglass.Nack;
import dev.hourglass.Queue;
import dev.hourglass.server.TestServer;
import dev.hourglass.testing.Postgres;
import dev.hourglass.testing.RedisExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code hourglass history} against a real server with an archive, and one without. */
class HistoryCommandTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();
  @RegisterExtension static Postgres pg = Postgres.perClass();

  @Test
  void showsPagesFilteredByOutcomeAndOneJobsLastRecord() {
    try (TestServer s = TestServer.startWithArchive(redis.uri(), pg)) {
      Queue<byte[]> q = s.server().hourglass().queue("cli");
      q.enqueue(JobSpec.builder().id("ok-1").payload("{\"n\":1}").build());
      q.enqueue(JobSpec.builder().id("bad-1").payload("{\"n\":2}").build());
      List<Delivery<byte[]>> got = q.claim(2, Duration.ofMinutes(1));
      assertThat(got).hasSize(2);
      for (Delivery<byte[]> d : got) {
        if (d.id().equals("ok-1")) {
          q.ack(d);
        } else {
          q.nack(d, Nack.kill("broken payload"));
        }
      }
      await("both archived")
          .atMost(Duration.ofSeconds(30))
          .until(() -> Cli.run("history", "cli", "--server", s.baseUrl()).out().contains("bad-1"));

      Cli.Result page = Cli.run("history", "cli", "--server", s.baseUrl());
      assertThat(page.exitCode()).as(page.toString()).isZero();
      assertThat(page.out())
          .startsWith("ID")
          .contains("OUTCOME")
          .contains("ok-1")
          .contains("acked");

      Cli.Result dead =
          Cli.run("history", "cli", "--outcome", "dead", "--limit", "1", "--server", s.baseUrl());
      assertThat(dead.out()).contains("bad-1").contains("broken payload").doesNotContain("ok-1");

      Cli.Result one = Cli.run("history", "cli", "ok-1", "--server", s.baseUrl());
      assertThat(one.exitCode()).as(one.toString()).isZero();
      assertThat(one.out())
          .contains("outcome:")
          .contains("acked")
          .contains("payload:    {\"n\":1}");

      Cli.Result json =
          Cli.run(
              "history",
              "cli",
              "--since",
              "2000-01-01T00:00:00Z",
              "--json",
              "--server",
              s.baseUrl());
      assertThat(Json.parse(json.out()).path("jobs")).hasSize(2);

      assertThat(Cli.run("history", "cli", "never", "--server", s.baseUrl()).exitCode())
          .isEqualTo(ExitCodes.NOT_FOUND);
      assertThat(
              Cli.run("history", "cli", "ok-1", "--limit", "3", "--server", s.baseUrl()).exitCode())
          .isEqualTo(ExitCodes.USAGE);
      Cli.Result bad = Cli.run("history", "cli", "--outcome", "done", "--server", s.baseUrl());
      assertThat(bad.exitCode()).isEqualTo(ExitCodes.SERVER_ERROR);
      assertThat(bad.err()).contains("outcome");
    }
  }

  @Test
  void aServerWithoutAnArchiveIsNotFound() {
    try (TestServer s = TestServer.startQuickStop(redis.uri())) {
      Cli.Result r = Cli.run("history", "cli", "--server", s.baseUrl());
      assertThat(r.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
      assertThat(r.err()).contains("archive_not_configured");
    }
  }
}
