package dev.hourglass.server.cli;

import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code hourglass pause}: {@code POST /v1/queues/{queue}/pause}; {@link ResumeCommand} undoes it.
 */
@Command(
    name = "pause",
    mixinStandardHelpOptions = true,
    description = {
      "Pauses a queue until it is resumed.",
      "Claims get no jobs and push or forward delivery stops; the queue still accepts jobs and"
          + " keeps time: due jobs become ready and wait. Prints the queue, as 'stats' counts it."
    },
    footer = {
      "%nExamples:",
      "  hourglass pause orders",
      "  hourglass pause orders --json",
      ExitCodes.HELP
    })
public class PauseCommand implements Callable<Integer> {
  @Mixin ClientOptions options;

  @Mixin QueueArgument queue;

  private final UnaryOperator<String> path;

  /** The {@code pause} command. */
  public PauseCommand() {
    this(ApiPaths::pause);
  }

  PauseCommand(UnaryOperator<String> path) {
    this.path = path;
  }

  @Override
  public Integer call() {
    options.print(options.client().post(path.apply(queue.name), null), QueueText::summary);
    return ExitCodes.OK;
  }
}
