package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hourglass dead list}: {@code GET /v1/queues/{queue}/dead}, one page or all. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = {
      "Lists dead jobs, one page at a time or, with --all, every page.",
      "With --all --json the pages are merged into one document {\"jobs\": [...], \"next\": null}."
    },
    footer = {
      "%nExamples:",
      "  hourglass dead list orders",
      "  hourglass dead list orders --limit 20 --cursor 7c1f",
      "  hourglass dead list orders --all --json | jq -r '.jobs[].id'",
      ExitCodes.HELP
    })
public final class DeadListCommand implements Callable<Integer> {
  @Mixin ClientOptions options;

  @Parameters(
      index = "0",
      paramLabel = "QUEUE",
      converter = QueueName.class,
      description = "The queue.")
  String queue;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "Jobs per page (default: the server's, 100).")
  Integer limit;

  @Option(
      names = "--cursor",
      paramLabel = "C",
      description = "Start at this page, the 'next' of an earlier one.")
  String cursor;

  @Option(names = "--all", description = "Follow the 'next' cursors to the last page.")
  boolean all;

  @Override
  public Integer call() {
    ServerClient client = options.client();
    ServerResponse answer =
        all
            ? Pages.all(client, cursor, next -> ApiPaths.deadPage(queue, limit, next))
            : client.get(ApiPaths.deadPage(queue, limit, cursor));
    options.print(answer, this::table);
    return ExitCodes.OK;
  }

  private String table(JsonNode page) {
    JsonNode jobs = page.path("jobs");
    if (jobs.isEmpty()) {
      return "no dead jobs in " + queue;
    }
    TextTable table = new TextTable("ID", "ATTEMPTS", "CREATED", "LAST ERROR");
    for (JsonNode job : jobs) {
      table.row(
          job.path("id").asText(),
          JobText.attempts(job),
          JobText.time(job.path("createdAt")),
          JobText.shortError(job));
    }
    return Pages.withNextHint(table.render(), page, "hourglass dead list " + queue);
  }
}
