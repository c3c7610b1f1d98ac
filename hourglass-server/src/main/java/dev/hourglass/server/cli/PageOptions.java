package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.BiFunction;
import picocli.CommandLine.Option;

/**
 * The options of commands that list paged answers, {@code {"jobs": [...], "next": "<cursor>" |
 * null}} (a picocli mixin): one page from a cursor, or every page.
 */
public final class PageOptions {
  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "Jobs per page, 1..1000 (default: the server's, 100).")
  Integer limit;

  @Option(
      names = "--cursor",
      paramLabel = "C",
      description = "Start at this page, the 'next' of an earlier one.")
  String cursor;

  @Option(names = "--all", description = "Follow the 'next' cursors to the last page.")
  boolean all;

  /**
   * The page at {@code --cursor} or, with {@code --all}, every page from there merged into one
   * answer of the same shape with {@code "next": null}.
   *
   * @param pathOf the path of the page of a limit (null: the server's) at a cursor (null: the first
   *     page)
   */
  ServerResponse fetch(ServerClient client, BiFunction<Integer, String, String> pathOf) {
    if (!all) {
      return client.get(pathOf.apply(limit, cursor));
    }
    ArrayNode jobs = Json.MAPPER.createArrayNode();
    String next = cursor;
    do {
      JsonNode page = client.get(pathOf.apply(limit, next)).json();
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
   * <command> [--limit N] --cursor <next>}.
   */
  String withNextHint(String table, JsonNode page, String command) {
    String next = next(page);
    if (next == null) {
      return table;
    }
    return table
        + System.lineSeparator()
        + "more: "
        + command
        + (limit == null ? "" : " --limit " + limit)
        + " --cursor "
        + next;
  }

  private static String next(JsonNode page) {
    return page.path("next").isTextual() ? page.path("next").asText() : null;
  }
}
