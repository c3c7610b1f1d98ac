package dev.hourglass.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StatsCommandTest {
  static final String QUEUES =
      "{\"queues\":[{\"name\":\"orders\",\"delayed\":12,\"ready\":3,\"inflight\":1,\"dead\":0,"
          + "\"paused\":true},"
          + "{\"name\":\"mails-eu\",\"delayed\":0,\"ready\":250,\"inflight\":16,\"dead\":4}]}";
  static final String QUEUE =
      "{\"name\":\"orders\",\"delayed\":12,\"ready\":3,\"inflight\":1,\"dead\":0,\"partitions\":4,"
          + "\"defaults\":{\"maxAttempts\":5,\"visibilityMs\":30000},"
          + "\"delivery\":{\"type\":\"pull\"},\"counters\":{\"enqueued\":100,\"acked\":84}}";

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
  void withoutQueueShowsATableOfAllQueues() {
    server.answer(200, QUEUES);

    Cli.Result result = Cli.run("stats", "--server", server.url());

    assertThat(result.exitCode()).as(result.toString()).isZero();
    assertThat(server.request().method()).isEqualTo("GET");
    assertThat(server.request().path()).isEqualTo("/v1/queues");
    assertThat(result.out())
        .isEqualTo(
            "QUEUE     DELAYED  READY  INFLIGHT  DEAD  PAUSED\n"
                + "orders    12       3      1         0     yes\n"
                + "mails-eu  0        250    16        4     -\n");
  }

  @Test
  void saysSoWhenThereAreNoQueues() {
    server.answer(200, "{\"queues\":[]}");

    assertThat(Cli.run("stats", "--server", server.url()).out()).isEqualTo("no queues\n");
  }

  @Test
  void withQueueShowsEveryFieldFlattened() {
    server.answer(200, QUEUE);

    Cli.Result result = Cli.run("stats", "orders", "--server", server.url());

    assertThat(server.request().path()).isEqualTo("/v1/queues/orders");
    assertThat(result.out())
        .isEqualTo(
            "name:                  orders\n"
                + "delayed:               12\n"
                + "ready:                 3\n"
                + "inflight:              1\n"
                + "dead:                  0\n"
                + "partitions:            4\n"
                + "defaults.maxAttempts:  5\n"
                + "defaults.visibilityMs: 30000\n"
                + "delivery.type:         pull\n"
                + "counters.enqueued:     100\n"
                + "counters.acked:        84\n");
  }

  @Test
  void jsonPrintsTheServerAnswerAsIs() {
    server.answer(200, QUEUES);

    assertThat(Cli.run("stats", "--json", "--server", server.url()).out()).isEqualTo(QUEUES + "\n");
  }

  @Test
  void anUnknownQueueIsNotFound() {
    server.answer(404, "{\"error\":{\"code\":\"queue_not_found\",\"message\":\"no queue nope\"}}");

    Cli.Result result = Cli.run("stats", "nope", "--server", server.url());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
    assertThat(result.err()).isEqualTo("error: queue_not_found: no queue nope\n");
  }
}
