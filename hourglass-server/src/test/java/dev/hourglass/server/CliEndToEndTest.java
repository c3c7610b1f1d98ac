package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.server.cli.StandardInput;
import dev.hourglass.testing.RedisExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The CLI subcommands against a real server on a real Redis. */
class CliEndToEndTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  /** What one run of the CLI printed and returned. */
  record Run(int code, String out, String err) {}

  /** Runs the CLI in-process against {@code server}, with the process's (non-terminal) stdin. */
  static Run cli(String server, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--server";
    all[args.length + 1] = server;
    int code =
        Main.run(
            StandardInput.system(), new PrintWriter(out, true), new PrintWriter(err, true), all);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void enqueueGetRescheduleStatsCancel() {
    try (TestServer s = TestServer.startQuickStop(redis.uri())) {
      String url = s.baseUrl();
      Run enq =
          cli(
              url,
              "enqueue",
              "orders",
              "--id",
              "o-1",
              "--payload",
              "{\"order\": 1}",
              "--delay",
              "1h");
      assertThat(enq.code()).as(enq.err()).isZero();
      assertThat(enq.out()).contains("o-1", "delayed");

      Run get = cli(url, "get", "orders", "o-1", "--json");
      assertThat(get.code()).isZero();
      assertThat(get.out()).contains("\"payload\":{\"order\": 1}", "\"state\":\"delayed\"");

      assertThat(cli(url, "enqueue", "orders", "--id", "o-1", "--text", "again").code())
          .as("a duplicate id is a conflict")
          .isEqualTo(4);
      assertThat(cli(url, "reschedule", "orders", "o-1", "--delay", "0s").code()).isZero();
      assertThat(s.get("/v1/queues/orders/jobs/o-1").json().get("state").asText())
          .isEqualTo("ready");

      Run stats = cli(url, "stats", "orders");
      assertThat(stats.code()).isZero();
      assertThat(stats.out()).contains("orders");

      assertThat(cli(url, "cancel", "orders", "o-1").code()).isZero();
      assertThat(cli(url, "get", "orders", "o-1").code()).as("gone: not found").isEqualTo(3);
    }
  }

  @Test
  void deadLettersListRequeueAndPurge() {
    try (TestServer s = TestServer.startQuickStop(redis.uri())) {
      String url = s.baseUrl();
      s.post("/v1/queues/q/jobs", "{\"id\":\"d-1\",\"payload\":1,\"maxAttempts\":1}");
      var claimed = s.post("/v1/queues/q/claim", "{\"waitMs\":2000}").json().get("jobs").get(0);
      s.post(
          "/v1/queues/q/jobs/d-1/nack",
          "{\"receipt\":\"" + claimed.get("receipt").asText() + "\",\"error\":\"boom\"}");

      Run list = cli(url, "dead", "list", "q");
      assertThat(list.code()).as(list.err()).isZero();
      assertThat(list.out()).contains("d-1", "boom");
      assertThat(cli(url, "dead", "requeue", "q", "d-1").code()).isZero();
      assertThat(s.get("/v1/queues/q/jobs/d-1").json().get("state").asText()).isEqualTo("ready");
      assertThat(cli(url, "dead", "purge", "q", "--yes").code()).isZero();
    }
  }

  @Test
  void schedulesPutListGetPauseResumeDelete() {
    try (TestServer s = TestServer.startQuickStop(redis.uri())) {
      String url = s.baseUrl();
      Run put =
          cli(
              url,
              "schedules",
              "put",
              "reports",
              "nightly",
              "--cron",
              "30 2 * * *",
              "--time-zone",
              "Europe/Berlin",
              "--payload",
              "{\"kind\": \"daily\"}",
              "--max-attempts",
              "3");
      assertThat(put.code()).as(put.err()).isZero();
      assertThat(put.out()).contains("nightly", "cron 30 2 * * *", "Europe/Berlin", "next run");
      assertThat(
              cli(url, "schedules", "put", "reports", "ping", "--every", "1m", "--text", "p")
                  .code())
          .isZero();

      Run list = cli(url, "schedules", "list", "reports");
      assertThat(list.code()).as(list.err()).isZero();
      assertThat(list.out()).contains("nightly", "ping", "every 60000 ms");

      Run get = cli(url, "schedules", "get", "reports", "nightly", "--json");
      assertThat(get.code()).as(get.err()).isZero();
      assertThat(get.out()).contains("\"maxAttempts\":3", "\"nextRuns\":[");

      assertThat(cli(url, "schedules", "pause", "reports", "ping").out())
          .contains("paused:    yes");
      assertThat(cli(url, "schedules", "resume", "reports", "ping").out())
          .contains("paused:    no");
      assertThat(cli(url, "schedules", "delete", "reports", "ping").code()).isZero();
      assertThat(cli(url, "schedules", "get", "reports", "ping").code())
          .as("not found")
          .isEqualTo(3);
      assertThat(
              cli(url, "schedules", "put", "reports", "bad", "--cron", "61 * * * *", "--text", "x")
                  .err())
          .contains("cron");
    }
  }

  @Test
  void anUnreachableServerIsExitCode5() {
    assertThat(cli("http://127.0.0.1:1", "stats").code()).isEqualTo(5);
  }
}
