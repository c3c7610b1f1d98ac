package dev.hourglass.server.json;

/**
 * An answer of the API's error shape, {@code {"error": {"code", "message"}}}: thrown anywhere in a
 * request (or by a check the CLI shares), turned into the response by the HTTP layer's error
 * mapper.
 */
public final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int status;
  private final String code;

  public ApiException(int status, String code, String message) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
  }

  public int status() {
    return status;
  }

  public String code() {
    return code;
  }

  /** 400 {@code invalid_field}; the message starts with the field's name. */
  public static ApiException invalidField(String field, String reason) {
    return new ApiException(400, "invalid_field", field + ": " + reason);
  }

  public static ApiException invalidJson(String reason) {
    return new ApiException(400, "invalid_json", reason);
  }

  public static ApiException jobNotFound(String queue, String id) {
    return new ApiException(404, "job_not_found", "no job " + id + " in queue " + queue);
  }

  public static ApiException queueNotFound(String queue) {
    return new ApiException(404, "queue_not_found", "no queue " + queue);
  }
}
