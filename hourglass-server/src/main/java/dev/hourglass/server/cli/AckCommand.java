package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code hourglass ack}: {@code POST /v1/queues/{queue}/jobs/{id}/ack}. */
@Command(
    name = "ack",
    mixinStandardHelpOptions = true,
    description = {
      "Acks a claimed job: it is done and removed.",
      "The receipt is the one its claim printed; a receipt of an earlier delivery, or one whose"
          + " lease ran out, is 409 stale_receipt. With --json nothing is printed (204, no body)."
    },
    footer = {"%nExamples:", "  hourglass ack orders order-42 --receipt 9f2c41", ExitCodes.HELP})
public final class AckCommand implements Callable<Integer> {
  @Mixin ClientOptions options;

  @Mixin QueueArgument queue;

  @Parameters(index = "1", paramLabel = "ID", description = "The job's id.")
  String id;

  @Mixin Receipt receipt;

  @Override
  public Integer call() {
    ObjectNode body = receipt.body();
    options.print(
        options.client().post(ApiPaths.ack(queue.name, id), body),
        none -> "acked " + id + " in " + queue.name);
    return ExitCodes.OK;
  }
}
