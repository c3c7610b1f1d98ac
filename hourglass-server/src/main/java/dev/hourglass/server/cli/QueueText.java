package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.JsonNode;

/** How the client shows queues to people; the {@code --json} output is the server's own. */
final class QueueText {
  private QueueText() {}

  /** A table of the queues of {@code GET /v1/queues}: their counts and whether paused. */
  static String table(JsonNode answer) {
    JsonNode queues = answer.path("queues");
    if (queues.isEmpty()) {
      return "no queues";
    }
    TextTable table = new TextTable("QUEUE", "DELAYED", "READY", "INFLIGHT", "DEAD", "PAUSED");
    for (JsonNode q : queues) {
      table.row(
          q.path("name").asText(),
          q.path("delayed").asText(),
          q.path("ready").asText(),
          q.path("inflight").asText(),
          q.path("dead").asText(),
          paused(q));
    }
    return table.render();
  }

  /** {@code orders: paused (delayed 3, ready 1, inflight 0, dead 0)}: a queue as GET returns it. */
  static String summary(JsonNode queue) {
    return queue.path("name").asText()
        + ": "
        + ("yes".equals(paused(queue)) ? "paused" : "not paused")
        + " (delayed "
        + queue.path("delayed").asText()
        + ", ready "
        + queue.path("ready").asText()
        + ", inflight "
        + queue.path("inflight").asText()
        + ", dead "
        + queue.path("dead").asText()
        + ")";
  }

  /** {@code yes}, {@code no}, or {@code -} from a server that does not say. */
  static String paused(JsonNode queue) {
    JsonNode paused = queue.path("paused");
    return paused.isBoolean() ? (paused.asBoolean() ? "yes" : "no") : "-";
  }
}
