package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hourglass schedules}: a queue's recurring schedules (API.md 1.2): list, put ({@link
 * SchedulesPutCommand}), get, pause, resume, delete.
 */
@Command(
    name = "schedules",
    mixinStandardHelpOptions = true,
    description = {
      "Lists, puts, shows, pauses, resumes or deletes the schedules (recurring jobs) of a queue.",
      "A schedule enqueues one job per occurrence of a cron expression or a fixed interval, with"
          + " the id <schedule id>:<occurrence time in epoch ms>; at most one is pending at a time."
    },
    subcommands = {SchedulesPutCommand.class},
    footer = {
      "%nExamples:",
      "  hourglass schedules list reports",
      "  hourglass schedules put reports nightly --cron '30 2 * * *' --time-zone Europe/Berlin"
          + " --payload '{\"kind\":\"daily\"}'",
      "  hourglass schedules get reports nightly",
      "  hourglass schedules pause reports nightly",
      ExitCodes.HELP
    })
public final class SchedulesCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(
        spec.commandLine(), "a subcommand is required: list, put, get, pause, resume or delete");
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "Lists the queue's schedules: GET /v1/queues/{queue}/schedules.")
  int list(@Mixin ClientOptions options, @Mixin QueueArgument queue) {
    ServerResponse answer = options.client().get(ApiPaths.schedules(queue.name));
    options.print(answer, page -> table(queue.name, page.path("schedules")));
    return ExitCodes.OK;
  }

  @Command(
      name = "get",
      mixinStandardHelpOptions = true,
      description = "Shows one schedule with its next three runs.")
  int get(
      @Mixin ClientOptions options,
      @Mixin QueueArgument queue,
      @Parameters(index = "1", paramLabel = "ID", description = "The schedule id.") String id) {
    ServerResponse answer = options.client().get(ApiPaths.recurring(queue.name, id));
    options.print(answer, SchedulesCommand::details);
    return ExitCodes.OK;
  }

  @Command(
      name = "pause",
      mixinStandardHelpOptions = true,
      description = "Pauses a schedule: its pending occurrence is removed, none is enqueued.")
  int pause(
      @Mixin ClientOptions options,
      @Mixin QueueArgument queue,
      @Parameters(index = "1", paramLabel = "ID", description = "The schedule id.") String id) {
    return change(options, queue, id, "pause");
  }

  @Command(
      name = "resume",
      mixinStandardHelpOptions = true,
      description = "Resumes a schedule: its first occurrence after now is enqueued.")
  int resume(
      @Mixin ClientOptions options,
      @Mixin QueueArgument queue,
      @Parameters(index = "1", paramLabel = "ID", description = "The schedule id.") String id) {
    return change(options, queue, id, "resume");
  }

  @Command(
      name = "delete",
      mixinStandardHelpOptions = true,
      description = {
        "Deletes a schedule and its pending occurrence; a delivered one finishes normally.",
        "With --json: nothing (the answer, 204, has no body)."
      })
  int delete(
      @Mixin ClientOptions options,
      @Mixin QueueArgument queue,
      @Parameters(index = "1", paramLabel = "ID", description = "The schedule id.") String id) {
    ServerResponse answer = options.client().delete(ApiPaths.recurring(queue.name, id));
    options.print(answer, none -> "deleted schedule " + id + " of " + queue.name);
    return ExitCodes.OK;
  }

  private static int change(ClientOptions options, QueueArgument queue, String id, String what) {
    ServerResponse answer =
        options
            .client()
            .post(ApiPaths.recurring(queue.name, id) + "/" + what, Json.MAPPER.createObjectNode());
    options.print(answer, SchedulesCommand::details);
    return ExitCodes.OK;
  }

  private static String table(String queue, JsonNode schedules) {
    if (schedules.isEmpty()) {
      return "no schedules in " + queue;
    }
    TextTable table = new TextTable("ID", "TIMING", "TIME ZONE", "PAUSED", "NEXT RUN");
    for (JsonNode s : schedules) {
      table.row(
          s.path("id").asText(),
          timing(s),
          s.path("timeZone").asText(),
          s.path("paused").asBoolean() ? "yes" : "no",
          s.path("nextRuns").isEmpty() ? "-" : JobText.time(s.path("nextRuns").get(0)));
    }
    return table.render();
  }

  /** {@code cron 30 2 * * *} or {@code every 60000 ms}. */
  private static String timing(JsonNode s) {
    return s.has("cron")
        ? "cron " + s.path("cron").asText()
        : "every " + s.path("every").asLong() + " ms";
  }

  static String details(JsonNode s) {
    StringBuilder text = new StringBuilder();
    text.append("schedule ")
        .append(s.path("id").asText())
        .append(" of ")
        .append(s.path("queue").asText());
    text.append("\n  timing:    ").append(timing(s));
    text.append("\n  time zone: ").append(s.path("timeZone").asText());
    text.append("\n  paused:    ").append(s.path("paused").asBoolean() ? "yes" : "no");
    text.append("\n  payload:   ").append(s.path("payload").toString());
    for (JsonNode run : s.path("nextRuns")) {
      text.append("\n  next run:  ").append(JobText.time(run));
    }
    return text.toString();
  }
}
