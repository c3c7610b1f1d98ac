package dev.hourglass.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code dead list}, {@code dead requeue} and {@code dead purge}. */
class DeadCommandsTest {
  static final String PAGE_1 =
      "{\"jobs\":[{\"id\":\"a\",\"queue\":\"orders\",\"state\":\"dead\",\"attempts\":5,"
          + "\"maxAttempts\":5,\"createdAt\":1795251600000,\"payload\":1,"
          + "\"lastError\":\"connect timed out\"}],\"next\":\"c/2+\"}";
  static final String PAGE_2 =
      "{\"jobs\":[{\"id\":\"b\",\"queue\":\"orders\",\"state\":\"dead\",\"attempts\":3,"
          + "\"maxAttempts\":3,\"createdAt\":1795251600000,\"payload\":{\"x\":1.50}}],\"next\":null}";

  FakeServer server;

  @BeforeEach
  void startServer() throws IOException {
    server = FakeServer.start();
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  @Test
  void listShowsOnePageAndHowToGetTheNext() {
    server.answer(200, PAGE_1);

    Cli.Result result = Cli.run("dead", "list", "orders", "--limit", "1", "--server", server.url());

    assertThat(result.exitCode()).as(result.toString()).isZero();
    assertThat(server.request().method()).isEqualTo("GET");
    assertThat(server.request().path()).isEqualTo("/v1/queues/orders/dead");
    assertThat(server.request().query()).isEqualTo("limit=1");
    assertThat(result.out())
        .isEqualTo(
            "ID  ATTEMPTS  CREATED               LAST ERROR\n"
                + "a   5/5       2026-11-21T09:00:00Z  connect timed out\n"
                + "more: hourglass dead list orders --limit 1 --cursor c/2+\n");
  }

  @Test
  void listSendsTheCursorEncoded() {
    server.answer(200, PAGE_2);

    Cli.run("dead", "list", "orders", "--cursor", "c/2+", "--server", server.url());

    assertThat(server.request().query()).isEqualTo("cursor=c%2F2%2B");
  }

  @Test
  void listAllFollowsNextAndPrintsOneMergedDocument() {
    server.answer(200, PAGE_1).answer(200, PAGE_2);

    Cli.Result result =
        Cli.run("dead", "list", "orders", "--all", "--json", "--server", server.url());

    assertThat(result.exitCode()).as(result.toString()).isZero();
    assertThat(server.requests())
        .extracting(FakeServer.Request::query)
        .containsExactly(null, "cursor=c%2F2%2B");
    assertThat(Json.parse(result.out()).path("jobs"))
        .extracting(job -> job.path("id").asText())
        .containsExactly("a", "b");
    assertThat(Json.parse(result.out()).get("next").isNull()).isTrue();
    assertThat(result.out()).contains("{\"x\":1.50}").endsWith("\n");
    assertThat(result.out().strip()).doesNotContain("\n");
  }

  @Test
  void listAllShowsOneTableWithoutAMoreHint() {
    server.answer(200, PAGE_1).answer(200, PAGE_2);

    Cli.Result result = Cli.run("dead", "list", "orders", "--all", "--server", server.url());

    assertThat(result.out()).contains("\na ").contains("\nb ").doesNotContain("more:");
  }

  @Test
  void listSaysSoWhenThereAreNone() {
    server.answer(200, "{\"jobs\":[],\"next\":null}");

    assertThat(Cli.run("dead", "list", "orders", "--server", server.url()).out())
        .isEqualTo("no dead jobs in orders\n");
  }

  @Test
  void requeueOnePostsToTheJob() {
    server.answer(204, "");

    Cli.Result result = Cli.run("dead", "requeue", "orders", "a", "--server", server.url());

    assertThat(result.exitCode()).as(result.toString()).isZero();
    assertThat(server.request().method()).isEqualTo("POST");
    assertThat(server.request().path()).isEqualTo("/v1/queues/orders/dead/a/requeue");
    assertThat(result.out()).isEqualTo("requeued a from the dead jobs of orders\n");
  }

  @Test
  void requeueAllPostsToTheQueue() {
    server.answer(200, "{\"count\":3}");

    Cli.Result result = Cli.run("dead", "requeue", "orders", "--all", "--server", server.url());

    assertThat(server.request().method()).isEqualTo("POST");
    assertThat(server.request().path()).isEqualTo("/v1/queues/orders/dead/requeue");
    assertThat(result.out()).isEqualTo("requeued 3 dead jobs of orders\n");
  }

  @Test
  void requeueNeedsEitherAnIdOrAll() {
    Cli.Result neither = Cli.run("dead", "requeue", "orders", "--server", server.url());
    Cli.Result both = Cli.run("dead", "requeue", "orders", "a", "--all", "--server", server.url());

    assertThat(neither.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(neither.err()).contains("give either a job ID or --all");
    assertThat(both.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void purgeWithYesDeletesTheDeadLetters() {
    server.answer(200, "{\"count\":1}");

    Cli.Result result = Cli.run("dead", "purge", "orders", "--yes", "--server", server.url());

    assertThat(result.exitCode()).as(result.toString()).isZero();
    assertThat(server.request().method()).isEqualTo("DELETE");
    assertThat(server.request().path()).isEqualTo("/v1/queues/orders/dead");
    assertThat(result.out()).isEqualTo("purged 1 dead job of orders\n");
  }

  @Test
  void purgeWithoutYesRefusesWhenStdinIsNoTerminal() {
    Cli.Result result =
        Cli.run(
            StandardInput.of("y\n", false), "dead", "purge", "orders", "--server", server.url());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).contains("not purged").contains("--yes");
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void purgeAsksOnATerminal() {
    server.answer(200, "{\"count\":2}");

    Cli.Result result =
        Cli.run(
            StandardInput.of("yes\n", true), "dead", "purge", "orders", "--server", server.url());

    assertThat(result.exitCode()).as(result.toString()).isZero();
    assertThat(result.err()).isEqualTo("Delete every dead job of orders for good? [y/N] ");
    assertThat(result.out()).isEqualTo("purged 2 dead jobs of orders\n");
  }

  @Test
  void purgeStopsUnlessTheAnswerIsYes() {
    Cli.Result result =
        Cli.run(StandardInput.of("\n", true), "dead", "purge", "orders", "--server", server.url());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).endsWith("error: not purged: not confirmed\n");
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void deadAloneIsAUsageError() {
    Cli.Result result = Cli.run("dead");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).contains("a subcommand is required");
  }
}
