package dev.hourglass.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnqueueCommandTest {
  static final String CREATED =
      "{\"id\":\"order-42\",\"queue\":\"orders\",\"runAt\":1795255200000,\"state\":\"delayed\"}";

  FakeServer server;

  @BeforeEach
  void startServer() throws IOException {
    server = FakeServer.start().answer(201, CREATED);
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  @Test
  void postsEveryOptionAsTheApiJobFields() {
    Cli.Result result =
        Cli.run(
            "enqueue",
            "orders",
            "--server",
            server.url(),
            "--token",
            "s3cret",
            "--id",
            "order-42",
            "--payload",
            "{\"order\": 42, \"total\": 10.50}",
            "--delay",
            "30m",
            "--max-attempts",
            "7",
            "--backoff",
            "exponential:1s:1h",
            "--visibility",
            "45s",
            "--ttl",
            "1d",
            "--priority",
            "9");

    assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
    FakeServer.Request request = server.request();
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.path()).isEqualTo("/v1/queues/orders/jobs");
    assertThat(request.header("Authorization")).isEqualTo("Bearer s3cret");
    assertThat(request.header("Content-Type")).startsWith("application/json");
    assertThat(request.json())
        .isEqualTo(
            Json.parse(
                "{\"id\":\"order-42\",\"payload\":{\"order\":42,\"total\":10.50},\"delayMs\":1800000,"
                    + "\"maxAttempts\":7,"
                    + "\"backoff\":{\"type\":\"exponential\",\"baseMs\":1000,\"maxMs\":3600000},"
                    + "\"visibilityMs\":45000,\"ttlMs\":86400000,\"priority\":9}"));
    assertThat(result.out())
        .isEqualTo("enqueued order-42 into orders: delayed, runs at 2026-11-21T10:00:00Z\n");
    assertThat(result.err()).isEmpty();
  }

  @Test
  void sendsThePayloadTextExactlyAsWritten() {
    String payload = "{\"total\": 10.50, \"big\": 12345678901234567890, \"e\": 1E+3}";

    Cli.run("enqueue", "orders", "--server", server.url(), "--payload", payload);

    assertThat(server.request().body()).contains("\"payload\":" + payload);
  }

  @Test
  void sendsOnlyThePayloadWhenNothingElseIsGiven() {
    Cli.Result result =
        Cli.run("enqueue", "orders", "--server", server.url(), "--payload", "[1,2]");

    assertThat(result.exitCode()).isZero();
    assertThat(server.request().json()).isEqualTo(Json.parse("{\"payload\":[1,2]}"));
    assertThat(server.request().header("Authorization")).isNull();
  }

  @Test
  void runAtAcceptsIsoAndEpochMillis() {
    Cli.run(
        "enqueue",
        "q",
        "--server",
        server.url(),
        "--text",
        "x",
        "--run-at",
        "2026-11-21T12:00:00+02:00");
    Cli.run("enqueue", "q", "--server", server.url(), "--text", "x", "--run-at", "1795255200000");

    assertThat(server.requests())
        .extracting(r -> r.json().path("runAt").asLong())
        .containsExactly(1795255200000L, 1795255200000L);
  }

  @Test
  void textIsSentAsAJsonString() {
    Cli.run("enqueue", "mails", "--server", server.url(), "--text", "say \"hi\"\n");

    assertThat(server.request().json().path("payload").asText()).isEqualTo("say \"hi\"\n");
  }

  @Test
  void readsThePayloadFromStdinWithDash() {
    Cli.Result result =
        Cli.run(
            StandardInput.of("{\"from\": \"stdin\"}\n", false),
            "enqueue",
            "orders",
            "--server",
            server.url(),
            "--payload",
            "-");

    assertThat(result.exitCode()).as(result.toString()).isZero();
    assertThat(server.request().json().path("payload"))
        .isEqualTo(Json.parse("{\"from\":\"stdin\"}"));
  }

  @Test
  void readsThePayloadFromAFile(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("payload.json");
    Files.writeString(file, "{\"from\": \"file\", \"name\": \"Zoë\"}", StandardCharsets.UTF_8);

    Cli.run("enqueue", "orders", "--server", server.url(), "--payload-file", file.toString());

    assertThat(server.request().json().path("payload"))
        .isEqualTo(Json.parse("{\"from\":\"file\",\"name\":\"Zoë\"}"));
  }

  @Test
  void printsTheServerAnswerAsIsWithJson() {
    Cli.Result result =
        Cli.run("enqueue", "orders", "--server", server.url(), "--payload", "1", "--json");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isEqualTo(CREATED + "\n");
  }

  @Test
  void refusesAPayloadThatIsNotJsonWithoutCallingTheServer() {
    Cli.Result result =
        Cli.run("enqueue", "orders", "--server", server.url(), "--payload", "{order: 42}");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).startsWith("error: the payload of --payload is not valid JSON: ");
    assertThat(result.out()).isEmpty();
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void refusesTrailingContentAndEmptyPayloads(@TempDir Path dir) throws IOException {
    Path empty = Files.writeString(dir.resolve("empty.json"), "");

    assertThat(Cli.run("enqueue", "q", "--server", server.url(), "--payload", "{} {}").exitCode())
        .isEqualTo(ExitCodes.USAGE);
    Cli.Result fromEmptyFile =
        Cli.run("enqueue", "q", "--server", server.url(), "--payload-file", empty.toString());
    assertThat(fromEmptyFile.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(fromEmptyFile.err()).contains("is not valid JSON: it is empty");
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void aMissingPayloadFileIsAUsageError(@TempDir Path dir) {
    Cli.Result result =
        Cli.run(
            "enqueue",
            "q",
            "--server",
            server.url(),
            "--payload-file",
            dir.resolve("nope").toString());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).contains("cannot read --payload-file");
  }

  @Test
  void optionMistakesAreUsageErrors() {
    assertThat(Cli.run("enqueue", "q", "--server", server.url()).exitCode())
        .as("no payload")
        .isEqualTo(ExitCodes.USAGE);
    assertThat(Cli.run("enqueue", "q", "--payload", "1", "--text", "x").exitCode())
        .as("two payloads")
        .isEqualTo(ExitCodes.USAGE);
    assertThat(Cli.run("enqueue", "q", "--text", "x", "--delay", "5s", "--run-at", "0").exitCode())
        .as("delay and run-at")
        .isEqualTo(ExitCodes.USAGE);
    assertThat(Cli.run("enqueue", "q", "--text", "x", "--backoff", "linear:5s").exitCode())
        .as("bad backoff")
        .isEqualTo(ExitCodes.USAGE);
    assertThat(Cli.run("enqueue", "q", "--text", "x", "--max-attempts", "many").exitCode())
        .as("bad number")
        .isEqualTo(ExitCodes.USAGE);
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void aBadDurationNamesTheOptionAndTheForms() {
    Cli.Result result = Cli.run("enqueue", "q", "--text", "x", "--delay", "soon");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err())
        .contains("--delay")
        .contains("'soon' is not a duration like 1500ms, 30s, 5m, 2h, 1d")
        .contains("Run 'hourglass enqueue --help' for usage.");
  }

  @Test
  void aDuplicateIdIsAConflict() throws IOException {
    try (FakeServer conflicting = FakeServer.start()) {
      conflicting.answer(
          409, "{\"error\":{\"code\":\"duplicate_id\",\"message\":\"order-42 exists\"}}");

      Cli.Result result =
          Cli.run(
              "enqueue",
              "orders",
              "--server",
              conflicting.url(),
              "--id",
              "order-42",
              "--text",
              "x");

      assertThat(result.exitCode()).isEqualTo(ExitCodes.CONFLICT);
      assertThat(result.err()).isEqualTo("error: duplicate_id: order-42 exists\n");
      assertThat(result.out()).isEmpty();
    }
  }
}
