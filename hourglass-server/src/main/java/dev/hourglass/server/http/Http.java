package dev.hourglass.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hourglass.JobSpec;
import io.javalin.http.Context;

/** Small helpers shared by the handlers. */
final class Http {
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
}
