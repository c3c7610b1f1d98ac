package dev.hourglass.server.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.JobOutcome;
import dev.hourglass.archive.Archive;
import dev.hourglass.archive.HistoryPage;
import dev.hourglass.archive.HistoryRecord;
import dev.hourglass.server.json.ApiException;
import dev.hourglass.server.json.JsonOut;
import io.javalin.http.Context;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;

/**
 * A queue's finished jobs from the archive database (API.md 1.1 "History"): a page newest first,
 * and the last record of a job id. Without an archive both answer 404 {@code
 * archive_not_configured}; a database that cannot be read answers 503 {@code archive_unavailable}.
 * A deleted queue's history stays readable.
 */
final class HistoryApi {
  private static final long MAX_SINCE_MS = 1L << 47; // as far as job times go (year 6429)

  private final ApiContext api;

  HistoryApi(ApiContext api) {
    this.api = api;
  }

  void page(Context ctx, String queue) {
    Optional<JobOutcome> outcome =
        Optional.ofNullable(ctx.queryParam("outcome")).map(HistoryApi::outcome);
    Optional<Instant> since =
        Optional.ofNullable(ctx.queryParam("since")).map(s -> Instant.ofEpochMilli(parseSince(s)));
    int limit = Http.queryInt(ctx, "limit", 1, Http.MAX_PAGE, 100);
    Optional<String> cursor = Optional.ofNullable(Http.cursor(ctx));
    HistoryPage page = read(a -> a.history().page(queue, outcome, since, limit, cursor));
    ObjectNode body = JsonOut.object();
    ArrayNode jobs = body.putArray("jobs");
    page.jobs().forEach(r -> jobs.add(item(r)));
    if (page.next().isPresent()) {
      body.put("next", page.next().get());
    } else {
      body.putNull("next");
    }
    Http.json(ctx, 200, body);
  }

  void get(Context ctx, String queue, String id) {
    String jobId = Http.jobId(id);
    Optional<HistoryRecord> last = read(a -> a.history().last(queue, jobId));
    HistoryRecord r =
        last.orElseThrow(
            () ->
                new ApiException(
                    404,
                    "job_not_found",
                    "no finished job " + jobId + " of queue " + queue + " in the archive"));
    Http.json(ctx, 200, item(r));
  }

  private <T> T read(Function<Archive, T> query) {
    Archive archive =
        api.archive.orElseThrow(
            () ->
                new ApiException(
                    404,
                    "archive_not_configured",
                    "this server keeps no history: start it with --archive-url"));
    return query.apply(archive); // ArchiveException: 503 archive_unavailable (ErrorMapper)
  }

  private static JobOutcome outcome(String text) {
    return JobOutcome.ofWireName(text); // 400 invalid_field "outcome: must be acked, dead, ..."
  }

  private static long parseSince(String text) {
    try {
      long ms = Long.parseLong(text);
      if (ms >= 0 && ms <= MAX_SINCE_MS) {
        return ms;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw ApiException.invalidField("since", "must be a time in epoch milliseconds (0 or more)");
  }

  static ObjectNode item(HistoryRecord r) {
    ObjectNode o = JsonOut.object();
    o.put("id", r.id()).put("queue", r.queue()).put("outcome", r.outcome().wireName());
    o.put("finishedAt", r.finishedAt().toEpochMilli());
    o.put("createdAt", r.createdAt().toEpochMilli());
    o.put("runAt", r.runAt().toEpochMilli());
    o.put("attempts", r.attempts());
    if (r.lastError().isPresent()) {
      o.put("lastError", r.lastError().get());
    } else {
      o.putNull("lastError");
    }
    JsonOut.putPayload(o, "payload", r.payload());
    return o;
  }
}
