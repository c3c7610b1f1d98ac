package dev.hourglass.server;

import dev.hourglass.server.cli.AckCommand;
import dev.hourglass.server.cli.CancelCommand;
import dev.hourglass.server.cli.ClaimCommand;
import dev.hourglass.server.cli.CommandFactory;
import dev.hourglass.server.cli.DeadCommand;
import dev.hourglass.server.cli.DeleteCommand;
import dev.hourglass.server.cli.EnqueueCommand;
import dev.hourglass.server.cli.ErrorReporter;
import dev.hourglass.server.cli.ExitCodes;
import dev.hourglass.server.cli.GetCommand;
import dev.hourglass.server.cli.HistoryCommand;
import dev.hourglass.server.cli.JobsCommand;
import dev.hourglass.server.cli.LimitsCommand;
import dev.hourglass.server.cli.NackCommand;
import dev.hourglass.server.cli.PauseCommand;
import dev.hourglass.server.cli.QueuesCommand;
import dev.hourglass.server.cli.RescheduleCommand;
import dev.hourglass.server.cli.ResumeCommand;
import dev.hourglass.server.cli.SchedulesCommand;
import dev.hourglass.server.cli.StandardInput;
import dev.hourglass.server.cli.StatsCommand;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code hourglass} launcher: {@code hourglass server} runs the service; the other subcommands
 * are a command-line client of a running server's HTTP API.
 */
@Command(
    name = "hourglass",
    mixinStandardHelpOptions = true,
    description = "Hourglass: a delay queue on Redis, with an HTTP API for any language.",
    footer = ExitCodes.LAUNCHER_HELP,
    subcommands = {
      ServerCommand.class,
      EnqueueCommand.class,
      GetCommand.class,
      CancelCommand.class,
      RescheduleCommand.class,
      StatsCommand.class,
      QueuesCommand.class,
      JobsCommand.class,
      PauseCommand.class,
      ResumeCommand.class,
      LimitsCommand.class,
      DeleteCommand.class,
      ClaimCommand.class,
      AckCommand.class,
      NackCommand.class,
      DeadCommand.class,
      SchedulesCommand.class,
      HistoryCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /**
   * Runs the launcher and exits with its exit code.
   *
   * @param args the command line, e.g. {@code server --port 8080}
   */
  public static void main(String[] args) {
    System.exit(run(args));
  }

  /**
   * Runs the launcher with these arguments and returns its exit code.
   *
   * @param args the command line
   * @return the exit code ({@code ExitCodes})
   */
  public static int run(String... args) {
    return run(StandardInput.system(), utf8(System.out), utf8(System.err), args);
  }

  /**
   * Runs the launcher on these streams and returns its exit code; tests pass their own.
   *
   * @param stdin the standard input
   * @param out where output goes
   * @param err where errors go
   * @param args the command line
   * @return the exit code ({@code ExitCodes})
   */
  public static int run(StandardInput stdin, PrintWriter out, PrintWriter err, String... args) {
    CommandLine commandLine = new CommandLine(new Main(), new CommandFactory(stdin));
    ServerCommand.addSettingOptions(commandLine.getSubcommands().get("server"));
    giveTheVersion(commandLine);
    return ErrorReporter.install(commandLine).setOut(out).setErr(err).execute(args);
  }

  /** Every command's {@code -V}/{@code --version} prints the launcher's version. */
  private static void giveTheVersion(CommandLine command) {
    command.getCommandSpec().versionProvider(new Version());
    command.getSubcommands().values().forEach(Main::giveTheVersion);
  }

  private static PrintWriter utf8(OutputStream stream) {
    return new PrintWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), true);
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
  }

  /**
   * The project version, from {@code version.properties}, which the build writes (in the jar and in
   * the classes a test runs alike).
   */
  private static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
        if (in == null) {
          throw new IllegalStateException("version.properties is missing: build with Maven");
        }
        Properties build = new Properties();
        build.load(in);
        return new String[] {"hourglass " + build.getProperty("version")};
      }
    }
  }
}
