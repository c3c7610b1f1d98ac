package dev.hourglass.server.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code hourglass queues}: {@code GET /v1/queues}. */
@Command(
    name = "queues",
    mixinStandardHelpOptions = true,
    description = {
      "Lists every queue.",
      "A table of each queue's delayed, ready, inflight and dead jobs, and whether it is paused."
    },
    footer = {
      "%nExamples:",
      "  hourglass queues",
      "  hourglass queues --json | jq -r '.queues[] | select(.paused) | .name'",
      ExitCodes.HELP
    })
public final class QueuesCommand implements Callable<Integer> {
  @Mixin ClientOptions options;

  @Override
  public Integer call() {
    options.print(options.client().get(ApiPaths.queues()), QueueText::table);
    return ExitCodes.OK;
  }
}
