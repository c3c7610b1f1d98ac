package dev.hourglass.server.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code hourglass dead}: the dead letters of a queue, jobs whose attempts are spent. */
@Command(
    name = "dead",
    mixinStandardHelpOptions = true,
    description = "Lists, requeues or purges the dead jobs of a queue.",
    subcommands = {DeadListCommand.class, DeadRequeueCommand.class, DeadPurgeCommand.class},
    footer = {
      "%nExamples:",
      "  hourglass dead list orders",
      "  hourglass dead requeue orders order-42",
      "  hourglass dead purge orders --yes",
      ExitCodes.HELP
    })
public final class DeadCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(
        spec.commandLine(), "a subcommand is required: list, requeue or purge");
  }
}
