package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code hourglass claim}: {@code POST /v1/queues/{queue}/claim}. */
@Command(
    name = "claim",
    mixinStandardHelpOptions = true,
    description = {
      "Claims ready jobs, as a consumer does.",
      "Each is leased to you until it is acked, nacked or its lease runs out (then it is"
          + " delivered again).",
      "Prints each delivery's id, attempt, receipt (for ack and nack), lease end and payload."
          + " The answer is awaited for --timeout plus --wait."
    },
    footer = {
      "%nExamples:",
      "  hourglass claim orders",
      "  hourglass claim orders --max 10 --wait 5s --visibility 2m",
      "  hourglass claim orders --json | jq -r '.jobs[0].receipt'",
      ExitCodes.HELP
    })
public final class ClaimCommand implements Callable<Integer> {
  @Mixin ClientOptions options;

  @Mixin QueueArgument queue;

  @Option(
      names = "--max",
      paramLabel = "N",
      description = "Claim up to this many jobs, 1..100 (default: the server's, 1).")
  Integer max;

  @Option(
      names = "--wait",
      paramLabel = "DURATION",
      converter = DurationParser.class,
      description = "Wait up to this long, at most 30s, for a first job (default: 0, no wait).")
  Duration wait;

  @Option(
      names = "--visibility",
      paramLabel = "DURATION",
      converter = DurationParser.class,
      description = "Lease length (default: each job's or the queue's).")
  Duration visibility;

  @Override
  public Integer call() {
    ObjectNode body = Json.MAPPER.createObjectNode();
    if (max != null) {
      body.put("max", max);
    }
    if (wait != null) {
      body.put("waitMs", wait.toMillis());
    }
    if (visibility != null) {
      body.put("visibilityMs", visibility.toMillis());
    }
    ServerClient client = options.client(wait == null ? Duration.ZERO : wait);
    options.print(client.post(ApiPaths.claim(queue.name), body), this::table);
    return ExitCodes.OK;
  }

  String table(JsonNode answer) {
    JsonNode jobs = answer.path("jobs");
    if (jobs.isEmpty()) {
      return "no job to claim in " + queue.name;
    }
    TextTable table = new TextTable("ID", "ATTEMPT", "RECEIPT", "LEASE UNTIL", "PAYLOAD");
    for (JsonNode job : jobs) {
      table.row(
          job.path("id").asText(),
          job.path("attempt").asText(),
          job.path("receipt").asText(),
          JobText.time(job.path("leaseUntil")),
          Json.write(job.path("payload")));
    }
    return table.render();
  }
}
