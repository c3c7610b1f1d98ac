package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.UnaryOperator;

/** Paged answers of the API, {@code {"jobs": [...], "next": "<cursor>" | null}}. */
final class Pages {
  private Pages() {}

  /**
   * Every page from {@code cursor} on, merged into one answer of the same shape as a single page
   * with {@code "next": null}.
   *
   * @param pathAt the path of the page at a cursor (null: the first page)
   */
  static ServerResponse all(ServerClient client, String cursor, UnaryOperator<String> pathAt) {
    ArrayNode jobs = Json.MAPPER.createArrayNode();
    String next = cursor;
    do {
      JsonNode page = client.get(pathAt.apply(next)).json();
      page.path("jobs").forEach(jobs::add);
      String previous = next;
      next = next(page);
      if (next != null && next.equals(previous)) {
        throw new CommandFailure(
            ExitCodes.SERVER_ERROR, "the server answered cursor " + next + " with itself as next");
      }
    } while (next != null);
    ObjectNode merged = Json.MAPPER.createObjectNode();
    merged.set("jobs", jobs);
    merged.putNull("next");
    return new ServerResponse(200, Json.write(merged));
  }

  /**
   * {@code table}, followed when there is a next page by the command that shows it: {@code more:
   * <command> --cursor <next>}.
   */
  static String withNextHint(String table, JsonNode page, String command) {
    String next = next(page);
    if (next == null) {
      return table;
    }
    return table + System.lineSeparator() + "more: " + command + " --cursor " + next;
  }

  private static String next(JsonNode page) {
    return page.path("next").isTextual() ? page.path("next").asText() : null;
  }
}
