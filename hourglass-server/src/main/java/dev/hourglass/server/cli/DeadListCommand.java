package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

  @Parameters(index = "0", paramLabel = "QUEUE", description = "The queue.")
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
        all ? allPages(client) : client.get(ApiPaths.deadPage(queue, limit, cursor));
    options.print(answer, this::table);
    return ExitCodes.OK;
  }

  /** Every page from {@link #cursor} on, as one answer of the same shape as a single page. */
  private ServerResponse allPages(ServerClient client) {
    ArrayNode jobs = Json.MAPPER.createArrayNode();
    String next = cursor;
    do {
      JsonNode page = client.get(ApiPaths.deadPage(queue, limit, next)).json();
      page.path("jobs").forEach(jobs::add);
      String previous = next;
      next = page.path("next").isTextual() ? page.path("next").asText() : null;
      if (next != null && next.equals(previous)) {
        throw new CommandFailure(
            ExitCodes.SERVER_ERROR, "the server answered cursor " + next + " with itself as next");
      }
    } while (next != null);
    ObjectNode merged = Json.MAPPER.createObjectNode();
    merged.set("jobs", jobs);
    merged.putNull("next");
    return new ServerResponse(200, Json.write(merged));
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
          job.path("attempts").asText() + "/" + job.path("maxAttempts").asText(),
          JobText.time(job.path("createdAt")),
          JobText.shortError(job));
    }
    if (!page.path("next").isTextual()) {
      return table.render();
    }
    return table.render()
        + System.lineSeparator()
        + "more: hourglass dead list "
        + queue
        + " --cursor "
        + page.path("next").asText();
  }
}
