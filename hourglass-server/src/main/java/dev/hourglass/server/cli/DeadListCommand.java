package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

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

  @Mixin QueueArgument queue;

  @Mixin PageOptions pages;

  @Override
  public Integer call() {
    ServerResponse answer =
        pages.fetch(options.client(), (limit, next) -> ApiPaths.deadPage(queue.name, limit, next));
    options.print(answer, this::table);
    return ExitCodes.OK;
  }

  private String table(JsonNode page) {
    JsonNode jobs = page.path("jobs");
    if (jobs.isEmpty()) {
      return "no dead jobs in " + queue.name;
    }
    TextTable table = new TextTable("ID", "ATTEMPTS", "CREATED", "LAST ERROR");
    for (JsonNode job : jobs) {
      table.row(
          job.path("id").asText(),
          JobText.attempts(job),
          JobText.time(job.path("createdAt")),
          JobText.shortError(job));
    }
    return pages.withNextHint(table.render(), page, "hourglass dead list " + queue.name);
  }
}
