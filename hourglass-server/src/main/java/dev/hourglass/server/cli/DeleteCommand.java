package dev.hourglass.server.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hourglass delete}: {@code DELETE /v1/queues/{queue}}, with {@code ?force=true}. */
@Command(
    name = "delete",
    mixinStandardHelpOptions = true,
    description = {
      "Deletes a queue and its settings.",
      "Only a queue without live jobs (delayed, ready, inflight or dead) is deleted: otherwise the"
          + " server answers 409 queue_not_empty (exit 4). --force deletes it with all its jobs, for"
          + " good; it asks on the terminal first unless --yes is given, and refuses (exit 2)"
          + " when stdin is not a terminal.",
      "With --json: nothing for an empty queue (the answer, 204, has no body), {\"count\": n}"
          + " with --force."
    },
    footer = {
      "%nExamples:",
      "  hourglass delete orders",
      "  hourglass delete orders --force --yes",
      ExitCodes.HELP
    })
public final class DeleteCommand implements Callable<Integer> {
  private final StandardInput stdin;

  @Spec CommandSpec spec;

  @Mixin ClientOptions options;

  @Mixin QueueArgument queue;

  @Option(names = "--force", description = "Delete the queue with all its jobs.")
  boolean force;

  @Option(names = "--yes", description = "With --force: delete without asking.")
  boolean yes;

  /**
   * The command on this input, which asks for confirmation of {@code --force} without {@code
   * --yes}; picocli creates it through {@link CommandFactory}.
   *
   * @param stdin the client's standard input
   */
  public DeleteCommand(StandardInput stdin) {
    this.stdin = stdin;
  }

  @Override
  public Integer call() {
    if (force && !yes) {
      Confirmation.ask(
          stdin,
          spec.commandLine().getErr(),
          "deleted",
          "Delete " + queue.name + " with all its jobs for good?");
    }
    ServerResponse answer;
    try {
      answer = options.client().delete(ApiPaths.deleteQueue(queue.name, force));
    } catch (CommandFailure failure) {
      if ("queue_not_empty".equals(failure.serverCode())) {
        throw new CommandFailure(
            failure.exitCode(),
            failure.serverCode(),
            failure.getMessage() + " (use --force to delete it with all its jobs)");
      }
      throw failure;
    }
    options.print(
        answer,
        removed ->
            force
                ? "deleted " + queue.name + " and " + jobs(removed.path("count").asLong())
                : "deleted " + queue.name);
    return ExitCodes.OK;
  }

  private static String jobs(long count) {
    return count + (count == 1 ? " job" : " jobs");
  }
}
