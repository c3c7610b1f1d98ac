package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code hourglass history}: {@code GET /v1/queues/{queue}/history} (a page, newest first, or every
 * page), or {@code GET /v1/queues/{queue}/history/{id}} (the last record of a job id).
 */
@Command(
    name = "history",
    mixinStandardHelpOptions = true,
    description = {
      "Shows finished jobs (acked, dead, cancelled, expired, purged) from the server's archive"
          + " database, newest first; with an ID, the last record of that job.",
      "A server without an archive (--archive-url) answers 404 archive_not_configured (exit 3)."
    },
    footer = {
      "%nExamples:",
      "  hourglass history orders",
      "  hourglass history orders --outcome dead --since 2026-11-21T00:00:00Z --limit 20",
      "  hourglass history orders order-42",
      "  hourglass history orders --all --json | jq -r '.jobs[].id'",
      ExitCodes.HELP
    })
public final class HistoryCommand implements Callable<Integer> {
  @Mixin ClientOptions options;

  @Mixin QueueArgument queue;

  @Parameters(
      index = "1",
      arity = "0..1",
      paramLabel = "ID",
      description = "A job id: show its last record instead of a page.")
  String id;

  @Option(
      names = "--outcome",
      paramLabel = "OUTCOME",
      description = "Only jobs that finished so: acked, dead, cancelled, expired or purged.")
  String outcome;

  @Option(
      names = "--since",
      paramLabel = "TIME",
      converter = InstantParser.class,
      description = "Only jobs that finished at or after TIME (ISO-8601 with offset, or epoch ms).")
  Instant since;

  @Mixin PageOptions pages;

  @Override
  public Integer call() {
    if (id != null) {
      if (outcome != null
          || since != null
          || pages.limit != null
          || pages.cursor != null
          || pages.all) {
        throw new CommandFailure(
            ExitCodes.USAGE,
            "with an ID, give none of --outcome, --since, --limit, --cursor, --all");
      }
      options.print(options.client().get(ApiPaths.historyJob(queue.name, id)), JobText::finished);
      return ExitCodes.OK;
    }
    ServerResponse answer =
        pages.fetch(
            options.client(),
            (limit, next) -> ApiPaths.historyPage(queue.name, outcome, since, limit, next));
    options.print(answer, this::table);
    return ExitCodes.OK;
  }

  private String table(JsonNode page) {
    JsonNode jobs = page.path("jobs");
    if (jobs.isEmpty()) {
      return "no finished jobs of " + queue.name + " in the archive";
    }
    TextTable table = new TextTable("ID", "OUTCOME", "FINISHED", "ATTEMPTS", "LAST ERROR");
    for (JsonNode job : jobs) {
      table.row(
          job.path("id").asText(),
          job.path("outcome").asText(),
          JobText.time(job.path("finishedAt")),
          job.path("attempts").asText(),
          JobText.shortError(job));
    }
    return pages.withNextHint(table.render(), page, "hourglass history " + queue.name);
  }
}
