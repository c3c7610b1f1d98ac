package dev.hourglass.server.cli;

import picocli.CommandLine.Command;

/** {@code hourglass resume}: {@code POST /v1/queues/{queue}/resume}; like pause otherwise. */
@Command(
    name = "resume",
    mixinStandardHelpOptions = true,
    description = {
      "Resumes a paused queue.",
      "Claims and delivery take its ready jobs again. Prints the queue, as 'stats' counts it."
    },
    footer = {
      "%nExamples:",
      "  hourglass resume orders",
      "  hourglass resume orders --json",
      ExitCodes.HELP
    })
public final class ResumeCommand extends PauseCommand {
  /** The {@code resume} command: {@code pause}'s options, the resume request. */
  public ResumeCommand() {
    super(ApiPaths::resume);
  }
}
