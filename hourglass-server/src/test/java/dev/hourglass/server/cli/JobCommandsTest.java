package dev.hourglass.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code get}, {@code cancel} and {@code reschedule}. */
class JobCommandsTest {
  static final String JOB =
      "{\"id\":\"order-42\",\"queue\":\"orders\",\"state\":\"delayed\",\"runAt\":1795255200000,"
          + "\"attempts\":1,\"maxAttempts\":5,\"priority\":3,\"createdAt\":1795251600000,"
          + "\"payload\":{\"order\":42},\"lastError\":\"card declined\"}";

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
  void getShowsTheJob() {
    server.answer(200, JOB);

    Cli.Result result =
        Cli.run("get", "orders", "order-42", "--server", server.url(), "--token", "t0k");

    assertThat(result.exitCode()).as(result.toString()).isZero();
    assertThat(server.request().method()).isEqualTo("GET");
    assertThat(server.request().path()).isEqualTo("/v1/queues/orders/jobs/order-42");
    assertThat(server.request().header("Authorization")).isEqualTo("Bearer t0k");
    assertThat(result.out())
        .isEqualTo(
            "id:         order-42\n"
                + "queue:      orders\n"
                + "state:      delayed\n"
                + "runs at:    2026-11-21T10:00:00Z\n"
                + "attempts:   1 of 5\n"
                + "priority:   3\n"
                + "created at: 2026-11-21T09:00:00Z\n"
                + "last error: card declined\n"
                + "payload:    {\"order\":42}\n");
  }

  @Test
  void getPrintsTheServerJsonAsIs() {
    server.answer(200, JOB);

    Cli.Result result = Cli.run("get", "orders", "order-42", "--server", server.url(), "--json");

    assertThat(result.out()).isEqualTo(JOB + "\n");
  }

  @Test
  void getOfAnUnknownJobIsNotFound() {
    server.answer(
        404, "{\"error\":{\"code\":\"job_not_found\",\"message\":\"no job nope in orders\"}}");

    Cli.Result result = Cli.run("get", "orders", "nope", "--server", server.url());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
    assertThat(result.err()).isEqualTo("error: job_not_found: no job nope in orders\n");
    assertThat(result.out()).isEmpty();
  }

  @Test
  void idsAndQueueNamesAreSentAsOnePathSegment() {
    server.answer(200, JOB);

    Cli.run("get", "orders.eu", "a/b c", "--server", server.url());

    assertThat(server.request().path()).isEqualTo("/v1/queues/orders.eu/jobs/a%2Fb%20c");
  }

  @Test
  void cancelDeletesTheJob() {
    server.answer(204, "");

    Cli.Result result = Cli.run("cancel", "orders", "order-42", "--server", server.url());

    assertThat(result.exitCode()).as(result.toString()).isZero();
    assertThat(server.request().method()).isEqualTo("DELETE");
    assertThat(server.request().path()).isEqualTo("/v1/queues/orders/jobs/order-42");
    assertThat(server.request().body()).isEmpty();
    assertThat(result.out()).isEqualTo("cancelled order-42 in orders\n");
  }

  @Test
  void cancelWithJsonPrintsNothingForTheBodilessAnswer() {
    server.answer(204, "");

    Cli.Result result = Cli.run("cancel", "orders", "order-42", "--server", server.url(), "--json");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isEmpty();
  }

  @Test
  void cancellingAnInflightJobIsAConflict() {
    server.answer(
        409, "{\"error\":{\"code\":\"job_inflight\",\"message\":\"order-42 is leased\"}}");

    Cli.Result result = Cli.run("cancel", "orders", "order-42", "--server", server.url());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.CONFLICT);
    assertThat(result.err()).isEqualTo("error: job_inflight: order-42 is leased\n");
  }

  @Test
  void rescheduleWithDelayPutsDelayMs() {
    server.answer(200, JOB);

    Cli.Result result =
        Cli.run("reschedule", "orders", "order-42", "--delay", "2h", "--server", server.url());

    assertThat(result.exitCode()).as(result.toString()).isZero();
    assertThat(server.request().method()).isEqualTo("PUT");
    assertThat(server.request().path()).isEqualTo("/v1/queues/orders/jobs/order-42/schedule");
    assertThat(server.request().json()).isEqualTo(Json.parse("{\"delayMs\":7200000}"));
    assertThat(result.out())
        .isEqualTo("rescheduled order-42 in orders: delayed, runs at 2026-11-21T10:00:00Z\n");
  }

  @Test
  void rescheduleWithRunAtPutsRunAt() {
    server.answer(200, JOB);

    Cli.run(
        "reschedule",
        "orders",
        "order-42",
        "--run-at",
        "2026-11-21T10:00:00Z",
        "--server",
        server.url());

    assertThat(server.request().json()).isEqualTo(Json.parse("{\"runAt\":1795255200000}"));
  }

  @Test
  void rescheduleNeedsExactlyOneOfDelayAndRunAt() {
    assertThat(Cli.run("reschedule", "orders", "order-42", "--server", server.url()).exitCode())
        .isEqualTo(ExitCodes.USAGE);
    assertThat(
            Cli.run("reschedule", "orders", "order-42", "--delay", "1s", "--run-at", "0")
                .exitCode())
        .isEqualTo(ExitCodes.USAGE);
    assertThat(server.requests()).isEmpty();
  }
}
