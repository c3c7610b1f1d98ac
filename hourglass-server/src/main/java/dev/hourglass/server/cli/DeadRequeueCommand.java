package dev.hourglass.server.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hourglass dead requeue}: {@code POST /v1/queues/{queue}/dead/{id}/requeue} or, with {@code
 * --all}, {@code POST /v1/queues/{queue}/dead/requeue}.
 */
@Command(
    name = "requeue",
    mixinStandardHelpOptions = true,
    description = "Moves dead jobs back into their queue: one by ID, or every one with --all.",
    footer = {
      "%nExamples:",
      "  hourglass dead requeue orders order-42",
      "  hourglass dead requeue orders --all",
      ExitCodes.HELP
    })
public final class DeadRequeueCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ClientOptions options;

  @Mixin QueueArgument queue;

  @Parameters(
      index = "1",
      arity = "0..1",
      paramLabel = "ID",
      description = "The dead job to requeue.")
  String id;

  @Option(names = "--all", description = "Requeue every dead job of the queue.")
  boolean all;

  @Override
  public Integer call() {
    if ((id == null) == !all) {
      throw new ParameterException(
          spec.commandLine(), "give either a job ID or --all, not both or neither");
    }
    ServerClient client = options.client();
    if (all) {
      options.print(
          client.post(ApiPaths.requeueAllDead(queue.name), null),
          answer -> "requeued " + JobText.deadJobs(answer) + " of " + queue.name);
    } else {
      options.print(
          requeueOne(client), none -> "requeued " + id + " from the dead jobs of " + queue.name);
    }
    return ExitCodes.OK;
  }

  /** Requeues {@link #id}; a job that lives but is not dead is a conflict saying its state. */
  private ServerResponse requeueOne(ServerClient client) {
    try {
      return client.post(ApiPaths.requeueDead(queue.name, id), null);
    } catch (CommandFailure failure) {
      if (failure.exitCode() == ExitCodes.CONFLICT) {
        throw new CommandFailure(
            failure.exitCode(),
            failure.serverCode(),
            failure.getMessage() + " (only a dead job can be requeued)");
      }
      throw failure;
    }
  }
}
