package dev.hourglass.server.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hourglass dead purge}: {@code DELETE /v1/queues/{queue}/dead}. */
@Command(
    name = "purge",
    mixinStandardHelpOptions = true,
    description = {
      "Deletes every dead job of a queue, for good.",
      "Without --yes it asks on the terminal; when stdin is not a terminal it refuses (exit 2)."
    },
    footer = {
      "%nExamples:",
      "  hourglass dead purge orders",
      "  hourglass dead purge orders --yes --json",
      ExitCodes.HELP
    })
public final class DeadPurgeCommand implements Callable<Integer> {
  private final StandardInput stdin;

  @Spec CommandSpec spec;

  @Mixin ClientOptions options;

  @Mixin QueueArgument queue;

  @Option(names = "--yes", description = "Purge without asking.")
  boolean yes;

  /**
   * The command on this input, which asks for confirmation without {@code --yes}; picocli creates
   * it through {@link CommandFactory}.
   *
   * @param stdin the client's standard input
   */
  public DeadPurgeCommand(StandardInput stdin) {
    this.stdin = stdin;
  }

  @Override
  public Integer call() {
    if (!yes) {
      Confirmation.ask(
          stdin,
          spec.commandLine().getErr(),
          "purged",
          "Delete every dead job of " + queue.name + " for good?");
    }
    options.print(
        options.client().delete(ApiPaths.dead(queue.name)),
        answer -> "purged " + JobText.deadJobs(answer) + " of " + queue.name);
    return ExitCodes.OK;
  }
}
