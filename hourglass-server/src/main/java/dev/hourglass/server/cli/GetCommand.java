package dev.hourglass.server.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code hourglass get}: {@code GET /v1/queues/{queue}/jobs/{id}}. */
@Command(
    name = "get",
    mixinStandardHelpOptions = true,
    description = "Shows one job: its state, due time, attempts, last error and payload.",
    footer = {
      "%nExamples:",
      "  hourglass get orders order-42",
      "  hourglass get orders order-42 --json | jq .payload",
      ExitCodes.HELP
    })
public final class GetCommand implements Callable<Integer> {
  @Mixin ClientOptions options;

  @Mixin QueueArgument queue;

  @Parameters(index = "1", paramLabel = "ID", description = "The job's id.")
  String id;

  @Override
  public Integer call() {
    options.print(options.client().get(ApiPaths.job(queue.name, id)), JobText::details);
    return ExitCodes.OK;
  }
}
