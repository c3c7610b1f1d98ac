package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
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

  @Mixin JobOptions jobOptions;

  @ArgGroup(exclusive = true, multiplicity = "1")
  PayloadOptions payload;

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  ScheduleOptions schedule;

  @Option(
      names = "--id",
      paramLabel = "ID",
      description = "The job's id, [A-Za-z0-9._:-]{1,128}; the server makes one when absent.")
  String id;

  /**
   * The command on this input, which gives the payload for {@code --payload -}; picocli creates it
   * through {@link CommandFactory}.
   *
   * @param stdin the client's standard input
   */
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
    jobOptions.writeTo(body);
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
