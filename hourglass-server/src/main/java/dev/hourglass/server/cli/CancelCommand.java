package dev.hourglass.server.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code hourglass cancel}: {@code DELETE /v1/queues/{queue}/jobs/{id}}. */
@Command(
    name = "cancel",
    mixinStandardHelpOptions = true,
    description = {
      "Cancels a delayed or ready job.",
      "A job being worked on (inflight) is settled by its consumer instead: the server answers"
          + " 409 job_inflight. With --json nothing is printed, as the answer (204) has no body."
    },
    footer = {"%nExamples:", "  hourglass cancel orders order-42", ExitCodes.HELP})
public final class CancelCommand implements Callable<Integer> {
  @Mixin ClientOptions options;

  @Mixin QueueArgument queue;

  @Parameters(index = "1", paramLabel = "ID", description = "The job's id.")
  String id;

  @Override
  public Integer call() {
    options.print(
        options.client().delete(ApiPaths.job(queue.name, id)),
        none -> "cancelled " + id + " in " + queue.name);
    return ExitCodes.OK;
  }
}
