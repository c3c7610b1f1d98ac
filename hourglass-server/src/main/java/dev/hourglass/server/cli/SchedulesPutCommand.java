package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hourglass schedules put}: {@code PUT /v1/queues/{queue}/schedules/{id}}. */
@Command(
    name = "put",
    mixinStandardHelpOptions = true,
    description = {
      "Creates or replaces a schedule: --cron (Unix, 5 fields, in --time-zone) or --every.",
      "The same put from any number of clients leaves one schedule and never two jobs for one"
          + " occurrence; when the timing is unchanged the pending occurrence keeps its time."
    },
    footer = {
      "%nExamples:",
      "  hourglass schedules put reports nightly --cron '30 2 * * *' --time-zone Europe/Berlin"
          + " --payload '{\"kind\":\"daily\"}'",
      "  hourglass schedules put pings ping --every 1m --text ping --ttl 50s",
      ExitCodes.HELP
    })
public final class SchedulesPutCommand implements Callable<Integer> {
  private final StandardInput stdin;

  @Mixin ClientOptions options;

  @Mixin QueueArgument queue;

  @Mixin JobOptions jobOptions;

  @Parameters(
      index = "1",
      paramLabel = "ID",
      description = "The schedule id, [A-Za-z0-9._-]{1,100}.")
  String id;

  /** The timing: exactly one of --cron and --every. */
  static final class Timing {
    @Option(
        names = "--cron",
        paramLabel = "EXPR",
        description = "A Unix cron expression of 5 fields.")
    String cron;

    @Option(
        names = "--every",
        paramLabel = "DURATION",
        converter = DurationParser.class,
        description = "A fixed interval, at least 1s, counted from --start-at (default: creation).")
    Duration every;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Timing timing;

  @ArgGroup(exclusive = true, multiplicity = "1")
  PayloadOptions payload;

  @Option(
      names = "--time-zone",
      paramLabel = "ZONE",
      description = "IANA zone of --cron (default UTC).")
  String timeZone;

  @Option(
      names = "--start-at",
      paramLabel = "TIME",
      converter = InstantParser.class,
      description = "No occurrence before it.")
  Instant startAt;

  @Option(
      names = "--end-at",
      paramLabel = "TIME",
      converter = InstantParser.class,
      description = "No occurrence after it.")
  Instant endAt;

  /**
   * The command on this input, which gives the payload for {@code --payload -}; picocli creates it
   * through {@link CommandFactory}.
   *
   * @param stdin the client's standard input
   */
  public SchedulesPutCommand(StandardInput stdin) {
    this.stdin = stdin;
  }

  @Override
  public Integer call() {
    ObjectNode body = Json.MAPPER.createObjectNode();
    if (timing.cron != null) {
      body.put("cron", timing.cron);
    } else {
      body.put("every", timing.every.toMillis());
    }
    if (timeZone != null) {
      body.put("timeZone", timeZone);
    }
    body.putRawValue("payload", new RawValue(payload.read(stdin)));
    if (startAt != null) {
      body.put("startAt", startAt.toEpochMilli());
    }
    if (endAt != null) {
      body.put("endAt", endAt.toEpochMilli());
    }
    jobOptions.writeTo(body);
    ServerResponse answer = options.client().put(ApiPaths.recurring(queue.name, id), body);
    options.print(answer, SchedulesCommand::details);
    return ExitCodes.OK;
  }
}
