package dev.hourglass.server.http;

import dev.hourglass.DuplicateJobException;
import dev.hourglass.HourglassException;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobNotFoundException;
import dev.hourglass.JobStateException;
import dev.hourglass.PayloadTooLargeException;
import dev.hourglass.QueueNotEmptyException;
import dev.hourglass.RedisUnavailableException;
import dev.hourglass.ReplicaAckException;
import dev.hourglass.ScheduleNotFoundException;
import dev.hourglass.StaleReceiptException;
import dev.hourglass.archive.ArchiveException;
import dev.hourglass.server.json.ApiException;
import dev.hourglass.server.json.JsonOut;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.io.EofException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where failures become HTTP answers: every exception a request can raise maps to a
 * status and an error code of API.md; anything unexpected is logged and answered as {@code
 * internal}, never with a stack trace.
 */
public final class ErrorMapper {
  private static final Logger log = LoggerFactory.getLogger(ErrorMapper.class);

  /** Seconds a client refused by a limit (429) is told to wait before it asks again. */
  private static final String RETRY_AFTER_SECONDS = "1";

  private ErrorMapper() {}

  /**
   * The API error for a failure.
   *
   * @param failure what a handler threw, possibly wrapped by a future
   * @return the error as the API answers it: the failure itself when it is an {@link ApiException},
   *     else its mapped status and code
   */
  public static ApiException toApi(Throwable failure) {
    Throwable t = unwrap(failure);
    if (t instanceof ApiException e) {
      return e;
    }
    if (t instanceof InvalidArgumentException e) {
      return ApiException.invalidField(apiField(e.field()), e.reason());
    }
    if (t instanceof PayloadTooLargeException e) {
      return new ApiException(413, "payload_too_large", e.getMessage());
    }
    if (t instanceof DuplicateJobException e) {
      return new ApiException(409, "duplicate_id", e.getMessage());
    }
    if (t instanceof StaleReceiptException e) {
      return new ApiException(409, "stale_receipt", e.getMessage());
    }
    if (t instanceof JobNotFoundException e) {
      return new ApiException(404, "job_not_found", e.getMessage());
    }
    if (t instanceof ScheduleNotFoundException e) {
      return new ApiException(404, "schedule_not_found", e.getMessage());
    }
    if (t instanceof QueueNotEmptyException e) {
      return new ApiException(409, "queue_not_empty", e.getMessage());
    }
    if (t instanceof JobStateException e) {
      return new ApiException(409, stateCode(e), e.getMessage());
    }
    if (t instanceof RedisUnavailableException e) {
      return new ApiException(503, "redis_unavailable", unavailableMessage(e));
    }
    if (t instanceof ArchiveException e) {
      log.warn("archive request failed: {}", e.getMessage());
      return new ApiException(503, "archive_unavailable", e.getMessage());
    }
    if (t instanceof HttpResponseException e) {
      return fromStatus(e.getStatus(), String.valueOf(e.getMessage()));
    }
    if (t instanceof HttpException e && e.getCode() < 500) {
      // Jetty could not read the request body (bad chunked framing, a body shorter than its
      // Content-Length): malformed input, not a fault of the server.
      String reason = e.getReason() == null ? "the body could not be read" : e.getReason();
      return fromStatus(e.getCode(), "malformed request: " + reason);
    }
    if (t instanceof EofException) {
      return new ApiException(400, "bad_request", "the request body ended early");
    }
    if (t instanceof HourglassException) {
      log.warn("request failed: {}", t.getMessage());
      return new ApiException(500, "internal", "internal error: " + t.getMessage());
    }
    log.error("unexpected failure of a request", t);
    return new ApiException(500, "internal", "internal error; the server log has the details");
  }

  /**
   * Answers a failure in the API's error shape.
   *
   * @param ctx the request
   * @param failure what its handler threw
   */
  public static void answer(Context ctx, Throwable failure) {
    ApiException e = toApi(failure);
    ctx.status(e.status());
    if (e.status() == 429) {
      ctx.header("Retry-After", RETRY_AFTER_SECONDS);
    }
    ctx.contentType("application/json");
    ctx.result(JsonOut.error(e.code(), e.getMessage()));
  }

  private static String stateCode(JobStateException e) {
    return switch (e.state()) {
      case INFLIGHT -> "job_inflight";
      case DEAD -> "job_dead";
      default -> "job_state";
    };
  }

  private static String unavailableMessage(RedisUnavailableException e) {
    if (e instanceof ReplicaAckException) {
      return "the write took effect on the master, but too few replicas confirmed it in time;"
          + " it may or may not survive a failover: "
          + e.getMessage();
    }
    return e.outcomeUnknown()
        ? "Redis did not answer in time; the request may or may not have taken effect: "
            + e.getMessage()
        : "Redis is unreachable; nothing was changed: " + e.getMessage();
  }

  /** A status Javalin or Jetty chose, in the API's error codes. */
  private static ApiException fromStatus(int status, String message) {
    return switch (status) {
      case 413 ->
          new ApiException(413, "payload_too_large", "the request body is over the size limit");
      case 404 -> new ApiException(404, "not_found", "no such endpoint");
      case 405 -> new ApiException(405, "method_not_allowed", "method not allowed here");
      default ->
          status >= 500
              ? new ApiException(500, "internal", "internal error")
              : new ApiException(status, "bad_request", message);
    };
  }

  private static Throwable unwrap(Throwable t) {
    while ((t instanceof CompletionException
            || t instanceof ExecutionException
            || t instanceof UncheckedIOException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  /**
   * The request's name of a field the library names in its error: the API names durations in
   * milliseconds ({@code ttl} is {@code ttlMs}).
   */
  static String apiField(String libraryField) {
    return switch (libraryField) {
      case "delay", "visibility", "ttl" -> libraryField + "Ms";
      default -> libraryField;
    };
  }
}
