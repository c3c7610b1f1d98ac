package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import picocli.CommandLine.Option;

/**
 * When a job runs: {@code --delay} or {@code --run-at}, one at most (a picocli exclusive group).
 */
public final class ScheduleOptions {
  @Option(
      names = "--delay",
      paramLabel = "DURATION",
      converter = DurationParser.class,
      description = "Run after this long: 1500ms, 30s, 5m, 2h, 1d or plain milliseconds.")
  Duration delay;

  @Option(
      names = "--run-at",
      paramLabel = "TIME",
      converter = InstantParser.class,
      description = "Run at this time: ISO-8601 with offset, or epoch milliseconds.")
  Instant runAt;

  /** Adds {@code delayMs} or {@code runAt} to a request body. */
  void writeTo(ObjectNode body) {
    if (delay != null) {
      body.put("delayMs", delay.toMillis());
    } else {
      body.put("runAt", runAt.toEpochMilli());
    }
  }
}
