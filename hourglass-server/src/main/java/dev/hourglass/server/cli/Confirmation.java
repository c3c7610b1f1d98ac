package dev.hourglass.server.cli;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * Asks a person on the terminal before a command destroys something; without a terminal, or without
 * a yes, the command stops with a usage error (exit 2) that names the flag to skip asking.
 */
final class Confirmation {
  private Confirmation() {}

  /**
   * @param what the verb of the refusal, e.g. {@code purged}: {@code not purged: not confirmed}
   * @param question the question, without the {@code [y/N]}
   * @throws CommandFailure with {@link ExitCodes#USAGE} unless the answer is y or yes
   */
  static void ask(StandardInput stdin, PrintWriter err, String what, String question) {
    if (!stdin.isTerminal()) {
      throw new CommandFailure(
          ExitCodes.USAGE,
          "not "
              + what
              + ": stdin is not a terminal to confirm on; pass --yes to go ahead without asking");
    }
    err.print(question + " [y/N] ");
    err.flush();
    String answer = stdin.readLine();
    String normalized = answer == null ? "" : answer.strip().toLowerCase(Locale.ROOT);
    if (!normalized.equals("y") && !normalized.equals("yes")) {
      throw new CommandFailure(ExitCodes.USAGE, "not " + what + ": not confirmed");
    }
  }
}
