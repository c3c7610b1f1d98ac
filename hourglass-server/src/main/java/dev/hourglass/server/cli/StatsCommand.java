package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code hourglass stats}: {@code GET /v1/queues} or {@code GET /v1/queues/{queue}}. */
@Command(
    name = "stats",
    mixinStandardHelpOptions = true,
    description = {
      "Shows how many jobs the queues hold.",
      "Without QUEUE: a table of every queue's delayed, ready, inflight and dead jobs."
          + " With QUEUE: that queue's counts, settings and counters."
    },
    footer = {
      "%nExamples:",
      "  hourglass stats",
      "  hourglass stats orders",
      "  hourglass stats orders --json | jq .dead",
      ExitCodes.HELP
    })
public final class StatsCommand implements Callable<Integer> {
  @Mixin ClientOptions options;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "QUEUE",
      description = "The queue to show in detail.")
  String queue;

  @Override
  public Integer call() {
    ServerClient client = options.client();
    if (queue == null) {
      options.print(client.get(ApiPaths.queues()), StatsCommand::queueTable);
    } else {
      options.print(client.get(ApiPaths.queue(queue)), StatsCommand::fieldLines);
    }
    return ExitCodes.OK;
  }

  private static String queueTable(JsonNode answer) {
    JsonNode queues = answer.path("queues");
    if (queues.isEmpty()) {
      return "no queues";
    }
    TextTable table = new TextTable("QUEUE", "DELAYED", "READY", "INFLIGHT", "DEAD");
    for (JsonNode q : queues) {
      table.row(
          q.path("name").asText(),
          q.path("delayed").asText(),
          q.path("ready").asText(),
          q.path("inflight").asText(),
          q.path("dead").asText());
    }
    return table.render();
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
