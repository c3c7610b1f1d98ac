package dev.hourglass.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.JobInfo;
import dev.hourglass.JobPage;
import dev.hourglass.JobSpec;
import dev.hourglass.server.json.ApiException;
import dev.hourglass.server.json.Fields;
import dev.hourglass.server.json.JsonIn;
import dev.hourglass.server.json.JsonOut;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;

/** Small helpers shared by the handlers. */
final class Http {
  static final int MAX_PAGE = 1000;
  static final int MAX_CURSOR_CHARS = 200;

  private Http() {}

  static void json(Context ctx, int status, JsonNode body) {
    ctx.status(status);
    ctx.contentType("application/json");
    ctx.result(JsonOut.bytes(body));
  }

  /** A job id from the path, checked as the API defines it. */
  static String jobId(String id) {
    if (!JobSpec.isValidId(id)) {
      throw ApiException.invalidField("id", "must be 1 to 128 of A-Z a-z 0-9 . _ : -");
    }
    return id;
  }

  /** An integer query parameter, or {@code otherwise} when absent. */
  static int queryInt(Context ctx, String name, int min, int max, int otherwise) {
    String v = ctx.queryParam(name);
    if (v == null) {
      return otherwise;
    }
    try {
      int n = Integer.parseInt(v);
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw ApiException.invalidField(name, "must be an integer between " + min + " and " + max);
  }

  /**
   * Checks that a route with no body fields got none: no body, a blank one, or {@code {}}; any
   * field is refused as unknown.
   */
  static void noFields(byte[] body) {
    if (!new String(body, StandardCharsets.UTF_8).isBlank()) {
      Fields.of(JsonIn.object(body)).only();
    }
  }

  /** A page cursor from the query, as the server gave it out; null when absent. */
  static String cursor(Context ctx) {
    String cursor = ctx.queryParam("cursor");
    if (cursor != null && (cursor.isEmpty() || cursor.length() > MAX_CURSOR_CHARS)) {
      throw ApiException.invalidField("cursor", "is not a cursor this server gave out");
    }
    return cursor;
  }

  /** A page of jobs: {@code {"jobs": [...], "next": cursor | null}}. */
  static void page(Context ctx, JobPage<byte[]> page) {
    ObjectNode body = JsonOut.object();
    ArrayNode jobs = body.putArray("jobs");
    for (JobInfo<byte[]> j : page.jobs()) {
      jobs.add(JobJson.job(j));
    }
    if (page.next().isPresent()) {
      body.put("next", page.next().get());
    } else {
      body.putNull("next");
    }
    json(ctx, 200, body);
  }
}
