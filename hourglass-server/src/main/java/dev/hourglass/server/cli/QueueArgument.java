package dev.hourglass.server.cli;

import picocli.CommandLine.Parameters;

/**
 * The QUEUE argument of a command (a picocli mixin), checked by {@link QueueName}: a name the
 * server would refuse is a usage error before any request.
 */
public final class QueueArgument {
  @Parameters(
      index = "0",
      paramLabel = "QUEUE",
      converter = QueueName.class,
      description = "The queue.")
  String name;

  @Override
  public String toString() {
    return name;
  }
}
