package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code hourglass reschedule}: {@code PUT /v1/queues/{queue}/jobs/{id}/schedule}. */
@Command(
    name = "reschedule",
    mixinStandardHelpOptions = true,
    description = "Moves a delayed or ready job to a new due time.",
    footer = {
      "%nExamples:",
      "  hourglass reschedule orders order-42 --delay 2h",
      "  hourglass reschedule orders order-42 --run-at 2026-11-21T10:00:00Z",
      "  hourglass reschedule orders order-42 --delay 0     # run now",
      ExitCodes.HELP
    })
public final class RescheduleCommand implements Callable<Integer> {
  @Mixin ClientOptions options;

  @Mixin QueueArgument queue;

  @Parameters(index = "1", paramLabel = "ID", description = "The job's id.")
  String id;

  @ArgGroup(exclusive = true, multiplicity = "1")
  ScheduleOptions schedule;

  @Override
  public Integer call() {
    ObjectNode body = Json.MAPPER.createObjectNode();
    schedule.writeTo(body);
    options.print(
        options.client().put(ApiPaths.schedule(queue.name, id), body),
        job -> "rescheduled " + id + " in " + queue.name + ": " + JobText.summary(job));
    return ExitCodes.OK;
  }
}
