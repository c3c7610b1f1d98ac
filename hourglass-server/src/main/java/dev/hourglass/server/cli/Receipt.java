package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Option;

/** The {@code --receipt} of a claimed job that {@code ack} and {@code nack} settle (a mixin). */
public final class Receipt {
  @Option(
      names = "--receipt",
      required = true,
      paramLabel = "R",
      description = "The receipt of the job's delivery, as claim printed it.")
  String receipt;

  /** A settlement body with the receipt, for the command to add its own fields to. */
  ObjectNode body() {
    return Json.MAPPER.createObjectNode().put("receipt", receipt);
  }
}
