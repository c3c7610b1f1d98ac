package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code hourglass jobs}: {@code GET /v1/queues/{queue}/jobs?state=...}, one page or all. */
@Command(
    name = "jobs",
    mixinStandardHelpOptions = true,
    description = {
      "Lists the jobs of a queue in one state, one page at a time or, with --all, every page.",
      "Delayed and ready jobs come by due time, inflight ones by lease deadline, dead ones by"
          + " time of death. Payloads and errors are shortened; 'hourglass get' shows a job whole.",
      "With --all --json the pages are merged into one document {\"jobs\": [...], \"next\": null}."
    },
    footer = {
      "%nExamples:",
      "  hourglass jobs orders --state delayed",
      "  hourglass jobs orders --state ready --limit 20 --cursor 7c1f",
      "  hourglass jobs orders --state inflight --all --json | jq -r '.jobs[].id'",
      ExitCodes.HELP
    })
public final class JobsCommand implements Callable<Integer> {
  /** The states API.md lists jobs by. */
  enum State {
    delayed,
    ready,
    inflight,
    dead
  }

  @Mixin ClientOptions options;

  @Mixin QueueArgument queue;

  @Option(
      names = "--state",
      required = true,
      paramLabel = "STATE",
      description = "Which jobs: ${COMPLETION-CANDIDATES}.")
  State state;

  @Mixin PageOptions pages;

  @Override
  public Integer call() {
    ServerResponse answer =
        pages.fetch(
            options.client(),
            (limit, next) -> ApiPaths.jobsPage(queue.name, state.name(), limit, next));
    options.print(answer, this::table);
    return ExitCodes.OK;
  }

  String table(JsonNode page) {
    JsonNode jobs = page.path("jobs");
    if (jobs.isEmpty()) {
      return "no " + state + " jobs in " + queue.name;
    }
    TextTable table =
        new TextTable("ID", "STATE", "DUE", "PRIO", "ATTEMPTS", "PAYLOAD", "LAST ERROR");
    for (JsonNode job : jobs) {
      table.row(
          job.path("id").asText(),
          job.path("state").asText(state.name()),
          JobText.time(job.path("runAt")),
          JobText.priority(job),
          JobText.attempts(job),
          JobText.shortPayload(job),
          JobText.shortError(job));
    }
    return pages.withNextHint(
        table.render(), page, "hourglass jobs " + queue.name + " --state " + state);
  }
}
