package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.hourglass.Backoff;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code hourglass enqueue}: {@code POST /v1/queues/{queue}/jobs}. */
@Command(
    name = "enqueue",
    mixinStandardHelpOptions = true,
    description = {
      "Enqueues one job: to run now, after --delay or at --run-at.",
      "The payload must be valid JSON; it is sent exactly as written."
    },
    footer = {
      "%nExamples:",
      "  hourglass enqueue orders --id order-42 --payload '{\"order\":42}' --delay 30m",
      "  hourglass enqueue mails --text 'hello' --run-at 2026-11-21T10:00:00Z",
      "  hourglass enqueue reports --payload-file job.json --backoff exponential:1s:1h",
      "  echo '[1,2,3]' | hourglass enqueue batches --payload - --max-attempts 8 --json",
      "  hourglass enqueue alerts --payload '{\"page\":\"oncall\"}' --priority 9",
      ExitCodes.HELP
    })
public final class EnqueueCommand implements Callable<Integer> {
  private final StandardInput stdin;

  @Mixin ClientOptions options;

  @Mixin QueueArgument queue;

  @ArgGroup(exclusive = true, multiplicity = "1")
  PayloadOptions payload;

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  ScheduleOptions schedule;

  @Option(
      names = "--id",
      paramLabel = "ID",
      description = "The job's id, [A-Za-z0-9._:-]{1,128}; the server makes one when absent.")
  String id;

  @Option(
      names = "--max-attempts",
      paramLabel = "N",
      description = "Attempts before the job goes dead, 1..1000 (default: the queue's).")
  Integer maxAttempts;

  @Option(
      names = "--backoff",
      paramLabel = "SPEC",
      converter = BackoffSpec.class,
      description = "Wait between attempts: " + BackoffSpec.FORMS + ".")
  Backoff backoff;

  @Option(
      names = "--priority",
      paramLabel = "N",
      description = {
        "Priority 0..9, higher first among due jobs (default: the queue's). Strict: while",
        "higher-priority jobs keep coming, lower ones wait."
      })
  Integer priority;

  @Option(
      names = "--visibility",
      paramLabel = "DURATION",
      converter = DurationParser.class,
      description = "Lease length of each delivery (default: the queue's).")
  Duration visibility;

  @Option(
      names = "--ttl",
      paramLabel = "DURATION",
      converter = DurationParser.class,
      description = "Drop the job if not acked within this long of its creation.")
  Duration ttl;

  public EnqueueCommand(StandardInput stdin) {
    this.stdin = stdin;
  }

  @Override
  public Integer call() {
    ObjectNode body = Json.MAPPER.createObjectNode();
    if (id != null) {
      body.put("id", id);
    }
    body.putRawValue("payload", new RawValue(payload.read(stdin)));
    if (schedule != null) {
      schedule.writeTo(body);
    }
    if (maxAttempts != null) {
      body.put("maxAttempts", maxAttempts);
    }
    if (backoff != null) {
      body.set("backoff", BackoffSpec.toJson(backoff));
    }
    if (priority != null) {
      body.put("priority", priority);
    }
    if (visibility != null) {
      body.put("visibilityMs", visibility.toMillis());
    }
    if (ttl != null) {
      body.put("ttlMs", ttl.toMillis());
    }
    ServerResponse response = options.client().post(ApiPaths.jobs(queue.name), body);
    options.print(
        response,
        job ->
            "enqueued "
                + job.path("id").asText()
                + " into "
                + job.path("queue").asText(queue.name)
                + ": "
                + JobText.summary(job));
    return ExitCodes.OK;
  }
}
