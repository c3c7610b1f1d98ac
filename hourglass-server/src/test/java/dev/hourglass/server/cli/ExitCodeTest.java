package dev.hourglass.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every exit code scripts may rely on, and what is printed with it. */
class ExitCodeTest {

  @ParameterizedTest
  @CsvSource({
    "400, invalid_field, " + ExitCodes.SERVER_ERROR,
    "401, unauthorized, " + ExitCodes.UNAUTHORIZED,
    "403, forbidden, " + ExitCodes.UNAUTHORIZED,
    "404, job_not_found, " + ExitCodes.NOT_FOUND,
    "409, stale_receipt, " + ExitCodes.CONFLICT,
    "413, payload_too_large, " + ExitCodes.SERVER_ERROR,
    "429, rate_limited, " + ExitCodes.SERVER_ERROR,
    "500, internal, " + ExitCodes.SERVER_ERROR,
    "503, redis_unavailable, " + ExitCodes.UNAVAILABLE
  })
  void eachServerErrorMapsToItsExitCode(int status, String code, int exitCode) throws IOException {
    try (FakeServer server = FakeServer.start()) {
      server.answer(
          status, "{\"error\":{\"code\":\"" + code + "\",\"message\":\"it went wrong\"}}");

      Cli.Result result = Cli.run("get", "orders", "a", "--server", server.url());

      assertThat(result.exitCode()).as(result.toString()).isEqualTo(exitCode);
      assertThat(result.err()).isEqualTo("error: " + code + ": it went wrong\n");
      assertThat(result.out()).isEmpty();
    }
  }

  @Test
  void anErrorWithoutTheApiBodyShowsStatusAndBody() throws IOException {
    try (FakeServer proxy = FakeServer.start()) {
      proxy.answer(502, "<html>Bad Gateway</html>");

      Cli.Result result = Cli.run("stats", "--server", proxy.url());

      assertThat(result.exitCode()).isEqualTo(ExitCodes.SERVER_ERROR);
      assertThat(result.err()).isEqualTo("error: HTTP 502: <html>Bad Gateway</html>\n");
    }
  }

  @Test
  void aClosedPortIsUnreachable() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }

    Cli.Result result = Cli.run("stats", "--server", "http://127.0.0.1:" + closedPort);

    assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.UNAVAILABLE);
    assertThat(result.err())
        .isEqualTo(
            "error: cannot reach the server at http://127.0.0.1:"
                + closedPort
                + ": connection refused\n");
  }

  @Test
  void noAnswerWithinTheTimeoutIsUnreachable() throws IOException {
    try (FakeServer server = FakeServer.start()) {
      server.hang();

      Cli.Result result = Cli.run("stats", "--server", server.url(), "--timeout", "300ms");

      assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.UNAVAILABLE);
      assertThat(result.err()).contains("no answer within 300 ms");
    }
  }

  @Test
  void picocliUsageErrorsAreUsageErrors() {
    assertThat(Cli.run("enqueue").exitCode()).as("missing QUEUE").isEqualTo(ExitCodes.USAGE);
    assertThat(Cli.run("get", "q", "a", "--bogus").exitCode())
        .as("unknown option")
        .isEqualTo(ExitCodes.USAGE);
    assertThat(Cli.run("frobnicate").exitCode()).as("unknown command").isEqualTo(ExitCodes.USAGE);
    assertThat(Cli.run().exitCode()).as("no command").isEqualTo(ExitCodes.USAGE);
    assertThat(Cli.run("stats", "--timeout", "0").exitCode())
        .as("zero timeout")
        .isEqualTo(ExitCodes.USAGE);
    assertThat(Cli.run("stats", "--server", "ftp://x").exitCode())
        .as("bad URL")
        .isEqualTo(ExitCodes.USAGE);
  }

  @Test
  void aUsageErrorSaysWhatAndWhereToLook() {
    Cli.Result result = Cli.run("get", "q", "a", "--bogus");

    assertThat(result.err())
        .isEqualTo("error: Unknown option: '--bogus'\nRun 'hourglass get --help' for usage.\n");
  }

  @Test
  void theTokenIsSentButNeverPrinted() throws IOException {
    try (FakeServer server = FakeServer.start()) {
      server.answer(401, "{\"error\":{\"code\":\"unauthorized\",\"message\":\"wrong token\"}}");

      Cli.Result result =
          Cli.run("stats", "--server", server.url(), "--token", "very-secret-token");
      Cli.Result help = Cli.run("stats", "--token", "very-secret-token", "--help");

      assertThat(server.request().header("Authorization")).isEqualTo("Bearer very-secret-token");
      assertThat(result.exitCode()).isEqualTo(ExitCodes.UNAUTHORIZED);
      assertThat(result.out() + result.err() + help.out() + help.err())
          .doesNotContain("very-secret-token");
    }
  }
}
