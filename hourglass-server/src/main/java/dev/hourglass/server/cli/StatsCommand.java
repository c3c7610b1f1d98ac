package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hourglass stats}: {@code GET /v1/queues} or {@code GET /v1/queues/{queue}}. */
@Command(
    name = "stats",
    mixinStandardHelpOptions = true,
    description = {
      "Shows how many jobs the queues hold.",
      "Without QUEUE: a table of every queue's delayed, ready, inflight and dead jobs, as"
          + " 'hourglass queues'. With QUEUE: that queue's counts, settings and counters.",
      "With --watch: reads QUEUE every --interval until Ctrl-C (or --count reads) and shows its"
          + " counts and the rates per second of its counters since the read before (enqueued/s,"
          + " delivered/s, acked/s, retried/s, dead/s; '-' on the first read). On a terminal it"
          + " redraws the screen; otherwise it prints one line per read; with --json one JSON"
          + " document per read. It stops without error when stdout is closed."
    },
    footer = {
      "%nExamples:",
      "  hourglass stats",
      "  hourglass stats orders",
      "  hourglass stats orders --json | jq .dead",
      "  hourglass stats orders --watch --interval 5s",
      "  hourglass stats orders --watch --count 10 > orders.log",
      ExitCodes.HELP
    })
public final class StatsCommand implements Callable<Integer> {
  private final StandardInput stdin;

  @Spec CommandSpec spec;

  @Mixin ClientOptions options;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "QUEUE",
      converter = QueueName.class,
      description = "The queue to show in detail.")
  String queue;

  @Option(names = "--watch", description = "Show QUEUE again every --interval, with rates.")
  boolean watch;

  @Option(
      names = "--interval",
      paramLabel = "DURATION",
      converter = DurationParser.class,
      defaultValue = "2s",
      description = "With --watch: time between reads (default: ${DEFAULT-VALUE}; 0: none).")
  Duration interval;

  @Option(
      names = "--count",
      paramLabel = "N",
      description = "With --watch: stop after N reads (default: until Ctrl-C).")
  Integer count;

  /**
   * The command on this input, which says whether {@code --watch} redraws a terminal or prints
   * lines; picocli creates it through {@link CommandFactory}.
   *
   * @param stdin the client's standard input
   */
  public StatsCommand(StandardInput stdin) {
    this.stdin = stdin;
  }

  @Override
  public Integer call() {
    ServerClient client = options.client();
    if (watch) {
      watch(client);
      return ExitCodes.OK;
    }
    if (count != null || spec.commandLine().getParseResult().hasMatchedOption("--interval")) {
      throw new ParameterException(spec.commandLine(), "--interval and --count go with --watch");
    }
    if (queue == null) {
      options.print(client.get(ApiPaths.queues()), QueueText::table);
    } else {
      options.print(client.get(ApiPaths.queue(queue)), StatsCommand::fieldLines);
    }
    return ExitCodes.OK;
  }

  private void watch(ServerClient client) {
    if (queue == null) {
      throw new ParameterException(spec.commandLine(), "--watch needs a QUEUE");
    }
    if (count != null && count < 1) {
      throw new ParameterException(spec.commandLine(), "--count must be 1 or more");
    }
    StatsWatch.Mode mode =
        options.json()
            ? StatsWatch.Mode.JSON
            : stdin.isTerminal() ? StatsWatch.Mode.REDRAW : StatsWatch.Mode.LINES;
    new StatsWatch(client, queue, options.out(), mode, interval).run(count);
  }

  /** Every field, nested ones as {@code defaults.maxAttempts}, so new fields show up unasked. */
  private static String fieldLines(JsonNode queue) {
    List<String[]> fields = new ArrayList<>();
    flatten("", queue, fields);
    int width = fields.stream().mapToInt(f -> f[0].length()).max().orElse(0) + 2;
    StringBuilder text = new StringBuilder();
    for (String[] field : fields) {
      text.append(String.format("%-" + width + "s%s%n", field[0] + ":", field[1]));
    }
    return text.toString().stripTrailing();
  }

  private static void flatten(String prefix, JsonNode node, List<String[]> fields) {
    if (node.isObject() && !node.isEmpty()) {
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        flatten(
            prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey(),
            field.getValue(),
            fields);
      }
    } else {
      fields.add(new String[] {prefix, node.isValueNode() ? node.asText() : Json.write(node)});
    }
  }
}
