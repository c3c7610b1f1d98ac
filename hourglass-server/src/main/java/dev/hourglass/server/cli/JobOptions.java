package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.Backoff;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The options of a job that {@code enqueue} and {@code schedules put} share (for a schedule, the
 * options of each occurrence), and the API fields they become. Each defaults to the queue's.
 */
final class JobOptions {
  @Option(
      names = "--max-attempts",
      paramLabel = "N",
      description = "Attempts before the job goes dead, 1..1000 (default: the queue's).")
  Integer maxAttempts;

  @Option(
      names = "--backoff",
      paramLabel = "SPEC",
      converter = BackoffSpec.class,
      description = "Wait between attempts: " + BackoffSpec.FORMS + ".")
  Backoff backoff;

  @Option(
      names = "--priority",
      paramLabel = "N",
      description = {
        "Priority 0..9, higher first among due jobs (default: the queue's). Strict: while",
        "higher-priority jobs keep coming, lower ones wait."
      })
  Integer priority;

  @Option(
      names = "--visibility",
      paramLabel = "DURATION",
      converter = DurationParser.class,
      description = "Lease length of each delivery (default: the queue's).")
  Duration visibility;

  @Option(
      names = "--ttl",
      paramLabel = "DURATION",
      converter = DurationParser.class,
      description = {
        "Drop the job if not acked within this long of its creation (an occurrence of a",
        "schedule: of its time)."
      })
  Duration ttl;

  /** Puts the options given into a request body, as the API names them. */
  void writeTo(ObjectNode body) {
    if (maxAttempts != null) {
      body.put("maxAttempts", maxAttempts);
    }
    if (backoff != null) {
      body.set("backoff", BackoffSpec.toJson(backoff));
    }
    if (priority != null) {
      body.put("priority", priority);
    }
    if (visibility != null) {
      body.put("visibilityMs", visibility.toMillis());
    }
    if (ttl != null) {
      body.put("ttlMs", ttl.toMillis());
    }
  }
}
