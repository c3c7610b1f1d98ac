package dev.hourglass.server.json;

/**
 * An answer of the API's error shape, {@code {"error": {"code", "message"}}}: thrown anywhere in a
 * request (or by a check the CLI shares), turned into the response by the HTTP layer's error
 * mapper.
 */
public final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The HTTP status of the answer. */
  private final int status;

  /** The API's error code. */
  private final String code;

  /**
   * An error answer; it carries no stack trace, being an answer and not a fault.
   *
   * @param status the HTTP status
   * @param code the API's error code (API.md), e.g. {@code invalid_field}
   * @param message what is wrong and what to do, for the client
   */
  public ApiException(int status, String code, String message) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
  }

  /**
   * The HTTP status of the answer.
   *
   * @return e.g. 400
   */
  public int status() {
    return status;
  }

  /**
   * The API's error code.
   *
   * @return e.g. {@code job_not_found}
   */
  public String code() {
    return code;
  }

  /**
   * 400 {@code invalid_field}; the message starts with the field's name.
   *
   * @param field the field's full name, e.g. {@code jobs[2].delayMs}
   * @param reason what is wrong with it
   * @return the error
   */
  public static ApiException invalidField(String field, String reason) {
    return new ApiException(400, "invalid_field", field + ": " + reason);
  }

  /**
   * 400 {@code invalid_json}: the body is not the JSON the route takes.
   *
   * @param reason what is wrong with it
   * @return the error
   */
  public static ApiException invalidJson(String reason) {
    return new ApiException(400, "invalid_json", reason);
  }

  /**
   * 404 {@code job_not_found}.
   *
   * @param queue the queue asked
   * @param id the job id it does not hold
   * @return the error
   */
  public static ApiException jobNotFound(String queue, String id) {
    return new ApiException(404, "job_not_found", "no job " + id + " in queue " + queue);
  }

  /**
   * 404 {@code queue_not_found}.
   *
   * @param queue the queue that does not exist
   * @return the error
   */
  public static ApiException queueNotFound(String queue) {
    return new ApiException(404, "queue_not_found", "no queue " + queue);
  }
}
