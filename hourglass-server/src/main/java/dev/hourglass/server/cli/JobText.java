package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/** How the client shows jobs to people; the {@code --json} output is the server's own. */
final class JobText {
  private static final int MAX_ERROR_CHARS = 60;
  private static final int MAX_PAYLOAD_CHARS = 40;

  private JobText() {}

  /** {@code delayed, runs at 2026-11-21T10:00:00Z}: a job's state and due time. */
  static String summary(JsonNode job) {
    return job.path("state").asText("?") + ", runs at " + time(job.path("runAt"));
  }

  /** One {@code name: value} line per field of a job as GET returns it. */
  static String details(JsonNode job) {
    StringBuilder text = new StringBuilder();
    line(text, "id", job.path("id").asText());
    line(text, "queue", job.path("queue").asText());
    line(text, "state", job.path("state").asText());
    line(text, "runs at", time(job.path("runAt")));
    line(
        text,
        "attempts",
        job.path("attempts").asText() + " of " + job.path("maxAttempts").asText());
    line(text, "priority", priority(job));
    line(text, "created at", time(job.path("createdAt")));
    if (job.hasNonNull("lastError")) {
      line(text, "last error", job.path("lastError").asText());
    }
    line(text, "payload", Json.write(job.path("payload")));
    return text.toString().stripTrailing();
  }

  /** Epoch milliseconds as ISO-8601 UTC, or {@code -} when absent. */
  static String time(JsonNode epochMillis) {
    return epochMillis.isIntegralNumber()
        ? Instant.ofEpochMilli(epochMillis.asLong()).toString()
        : "-";
  }

  /** {@code 1 dead job}, {@code 3 dead jobs}: the {@code count} of an answer. */
  static String deadJobs(JsonNode answer) {
    long count = answer.path("count").asLong();
    return count + (count == 1 ? " dead job" : " dead jobs");
  }

  /** A job's last error shortened to fit a table cell, or {@code -}. */
  static String shortError(JsonNode job) {
    return shorten(job.path("lastError").asText(""), MAX_ERROR_CHARS);
  }

  /** A job's payload as one line of JSON shortened to fit a table cell, or {@code -}. */
  static String shortPayload(JsonNode job) {
    JsonNode payload = job.path("payload");
    return shorten(payload.isMissingNode() ? "" : Json.write(payload), MAX_PAYLOAD_CHARS);
  }

  /** One {@code name: value} line per field of an archived job as the history returns it. */
  static String finished(JsonNode job) {
    StringBuilder text = new StringBuilder();
    line(text, "id", job.path("id").asText());
    line(text, "queue", job.path("queue").asText());
    line(text, "outcome", job.path("outcome").asText());
    line(text, "finished", time(job.path("finishedAt")));
    line(text, "was due at", time(job.path("runAt")));
    line(text, "created at", time(job.path("createdAt")));
    line(text, "attempts", job.path("attempts").asText());
    if (job.hasNonNull("lastError")) {
      line(text, "last error", job.path("lastError").asText());
    }
    line(text, "payload", Json.write(job.path("payload")));
    return text.toString().stripTrailing();
  }

  /** A job's priority, 0 to 9, or {@code -} from a server that does not send it. */
  static String priority(JsonNode job) {
    return job.path("priority").isIntegralNumber() ? job.path("priority").asText() : "-";
  }

  /** {@code 1/5}: a job's attempts so far of its most. */
  static String attempts(JsonNode job) {
    return job.path("attempts").asText() + "/" + job.path("maxAttempts").asText();
  }

  private static String shorten(String text, int max) {
    String line = text.strip().replaceAll("\\s+", " ");
    if (line.isEmpty()) {
      return "-";
    }
    return line.length() <= max ? line : line.substring(0, max - 3) + "...";
  }

  private static void line(StringBuilder text, String name, String value) {
    text.append(String.format("%-12s%s%n", name + ":", value));
  }
}
