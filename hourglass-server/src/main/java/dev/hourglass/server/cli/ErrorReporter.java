package dev.hourglass.server.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns every failure of a command into one {@code error: ...} line on stderr and an {@link
 * ExitCodes exit code}: the one place where exceptions become exit codes.
 */
public final class ErrorReporter implements IExecutionExceptionHandler, IParameterExceptionHandler {

  /**
   * Installs the reporter on {@code commandLine} and all its subcommands.
   *
   * @param commandLine the launcher's command line
   * @return the same command line, for chaining
   */
  public static CommandLine install(CommandLine commandLine) {
    ErrorReporter reporter = new ErrorReporter();
    return commandLine
        .setExecutionExceptionHandler(reporter)
        .setParameterExceptionHandler(reporter);
  }

  /** Usage errors: picocli's own and those commands throw as {@link ParameterException}. */
  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    CommandLine command = ex.getCommandLine();
    PrintWriter err = command.getErr();
    err.println("error: " + ex.getMessage());
    UnmatchedArgumentException.printSuggestions(ex, err);
    err.println("Run '" + command.getCommandSpec().qualifiedName() + " --help' for usage.");
    err.flush();
    return ExitCodes.USAGE;
  }

  @Override
  public int handleExecutionException(Exception ex, CommandLine command, ParseResult parseResult) {
    PrintWriter err = command.getErr();
    if (ex instanceof CommandFailure failure) {
      err.println("error: " + failure.getMessage());
      err.flush();
      return failure.exitCode();
    }
    // Not a failure a command anticipated: a bug, so the stack trace helps more than it hurts.
    err.println("error: unexpected " + ex);
    ex.printStackTrace(err);
    err.flush();
    return ExitCodes.SERVER_ERROR;
  }
}
