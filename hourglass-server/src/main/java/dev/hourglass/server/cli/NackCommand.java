package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hourglass nack}: {@code POST /v1/queues/{queue}/jobs/{id}/nack}. */
@Command(
    name = "nack",
    mixinStandardHelpOptions = true,
    description = {
      "Nacks a claimed job: it failed.",
      "It is retried by its backoff, or after --delay; it goes to the dead jobs with --dead or"
          + " when its attempts are spent.",
      "A stale receipt is 409 stale_receipt. With --json nothing is printed (204, no body)."
    },
    footer = {
      "%nExamples:",
      "  hourglass nack orders order-42 --receipt 9f2c41 --error 'card declined'",
      "  hourglass nack orders order-42 --receipt 9f2c41 --delay 10m",
      "  hourglass nack orders order-42 --receipt 9f2c41 --dead --error 'no such customer'",
      ExitCodes.HELP
    })
public final class NackCommand implements Callable<Integer> {
  @Mixin ClientOptions options;

  @Mixin QueueArgument queue;

  @Parameters(index = "1", paramLabel = "ID", description = "The job's id.")
  String id;

  @Mixin Receipt receipt;

  @Option(
      names = "--error",
      paramLabel = "TEXT",
      description = "Why it failed: the job's last error, one line.")
  String error;

  @Option(
      names = "--delay",
      paramLabel = "DURATION",
      converter = DurationParser.class,
      description = "Retry after this long instead of by the job's backoff.")
  Duration delay;

  @Option(names = "--dead", description = "Move it to the dead jobs now, without retrying.")
  boolean dead;

  @Override
  public Integer call() {
    ObjectNode body = receipt.body();
    if (error != null) {
      body.put("error", error);
    }
    if (delay != null) {
      body.put("delayMs", delay.toMillis());
    }
    if (dead) {
      body.put("dead", true);
    }
    options.print(
        options.client().post(ApiPaths.nack(queue.name, id), body),
        none -> "nacked " + id + " in " + queue.name + (dead ? ": moved to the dead jobs" : ""));
    return ExitCodes.OK;
  }
}
