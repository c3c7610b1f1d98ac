package dev.hourglass.server.cli;

import picocli.CommandLine.Command;

/** {@code hourglass resume}: {@code POST /v1/queues/{queue}/resume}; like pause otherwise. */
@Command(
    name = "resume",
    mixinStandardHelpOptions = true,
    description =
        "Resumes a paused queue: claims and delivery take its jobs again. Prints the queue.",
    footer = {
      "%nExamples:",
      "  hourglass resume orders",
      "  hourglass resume orders --json",
      ExitCodes.HELP
    })
public final class ResumeCommand extends PauseCommand {
  public ResumeCommand() {
    super(ApiPaths::resume);
  }
}
