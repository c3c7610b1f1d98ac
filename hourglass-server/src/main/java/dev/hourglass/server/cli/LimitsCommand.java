package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.QueueLimits;
import dev.hourglass.server.json.LimitsJson;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code hourglass limits}: a queue's flow-control limits, shown ({@code GET /v1/queues/{queue}}),
 * set or cleared ({@code PUT /v1/queues/{queue}} with {@code limits}).
 */
@Command(
    name = "limits",
    mixinStandardHelpOptions = true,
    description = {
      "Shows, sets or clears a queue's flow-control limits.",
      "--rate N/DURATION: at most N deliveries start in any window of DURATION; --concurrency N: at"
          + " most N of its jobs are inflight at once; counted across every consumer, server and"
          + " client. The options given replace the queue's limits (a part not given is removed);"
          + " --clear removes them; with neither, prints them. Prints the limits and the ready jobs"
          + " they hold back now."
    },
    footer = {
      "%nExamples:",
      "  hourglass limits orders --rate 100/1s --concurrency 10",
      "  hourglass limits orders --rate 5000/1h",
      "  hourglass limits orders --clear",
      "  hourglass limits orders",
      ExitCodes.HELP
    })
public final class LimitsCommand implements Callable<Integer> {
  @Mixin ClientOptions options;

  @Mixin QueueArgument queue;

  @Spec CommandSpec spec;

  @Option(
      names = "--rate",
      paramLabel = "N/DURATION",
      converter = RateSpec.class,
      description =
          "At most N deliveries start in any window of DURATION, e.g. 100/1s or 20/500ms.")
  QueueLimits.Rate rate;

  @Option(
      names = "--concurrency",
      paramLabel = "N",
      description = "At most N jobs inflight at once (1 to 100000).")
  Integer concurrency;

  @Option(names = "--clear", description = "Removes the queue's limits.")
  boolean clear;

  @Override
  public Integer call() {
    boolean set = rate != null || concurrency != null;
    if (clear && set) {
      throw new ParameterException(spec.commandLine(), "--clear goes alone");
    }
    ServerClient client = options.client();
    if (!clear && !set) {
      options.print(client.get(ApiPaths.queue(queue.name)), LimitsCommand::summary);
      return ExitCodes.OK;
    }
    QueueLimits limits = null;
    if (set) {
      try {
        limits = QueueLimits.of(rate, concurrency);
      } catch (InvalidArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--concurrency " + e.reason());
      }
    }
    ObjectNode body = Json.MAPPER.createObjectNode();
    LimitsJson.write(body, limits);
    options.print(client.put(ApiPaths.queue(queue.name), body), LimitsCommand::summary);
    return ExitCodes.OK;
  }

  /** {@code orders: rate 100/1000ms, concurrency 10; held back 3}, or {@code no limits}. */
  static String summary(JsonNode queue) {
    JsonNode limits = queue.path("limits");
    StringBuilder text = new StringBuilder(queue.path("name").asText()).append(": ");
    if (!limits.isObject()) {
      text.append("no limits");
    } else {
      JsonNode rate = limits.path("rate");
      text.append("rate ")
          .append(
              rate.isObject()
                  ? rate.path("max").asText() + "/" + rate.path("periodMs").asText() + "ms"
                  : "none");
      JsonNode concurrency = limits.path("concurrency");
      text.append(", concurrency ").append(concurrency.isNumber() ? concurrency.asText() : "none");
    }
    return text.append("; held back ").append(queue.path("heldBack").asText("0")).toString();
  }

  /** Reads {@code N/DURATION} (e.g. {@code 100/1s}) as a rate, by the core's rules. */
  public static final class RateSpec implements ITypeConverter<QueueLimits.Rate> {
    @Override
    public QueueLimits.Rate convert(String text) {
      String[] parts = text.trim().split("/", -1);
      if (parts.length != 2 || !parts[0].matches("\\d{1,9}")) {
        throw new TypeConversionException(
            "'" + text + "' is not a rate like 100/1s (N deliveries per DURATION)");
      }
      try {
        return new QueueLimits.Rate(Integer.parseInt(parts[0]), DurationParser.parse(parts[1]));
      } catch (IllegalArgumentException | InvalidArgumentException e) {
        throw new TypeConversionException("'" + text + "': " + e.getMessage());
      }
    }
  }
}
