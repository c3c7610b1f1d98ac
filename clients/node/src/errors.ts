// One error class per API error code (docs/API.md "Errors", docs/SERVER.md "Additions to API.md"), all of them
// HourglassError, which carries the HTTP status, the code and the server's message. errorFromAnswer is the one
// place that turns an answer into its class.

/** Every error this client throws: an API error answer (status, code, message) or a failure to reach the server. */
export class HourglassError extends Error {
  /** The HTTP status of the answer; 0 when no answer came. */
  readonly status: number;
  /** The API's snake_case code, e.g. `job_not_found`. */
  readonly code: string;

  constructor(status: number, code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
  }
}

/** 400 `invalid_json`: the body was not JSON. */
export class InvalidJsonError extends HourglassError {}

/** 400 `invalid_field`: a field is unknown, missing or out of range; `field` names it (`jobs[1].priority`). */
export class InvalidFieldError extends HourglassError {
  /** The field's path as the server named it, e.g. `delay`, `ttlMs`, `jobs[1].priority`, `limits.rate.max`. */
  readonly field: string;

  constructor(status: number, code: string, message: string) {
    super(status, code, message);
    this.field = fieldOf(message);
  }
}

/** 400 `invalid_queue_name`. */
export class InvalidQueueNameError extends HourglassError {}

/** 400 `bad_request`: a request too malformed for the API. */
export class BadRequestError extends HourglassError {}

/** 401 `unauthorized`: auth is on and the token is missing or wrong. */
export class UnauthorizedError extends HourglassError {}

/** 403 `forbidden`: the token lacks the role or the queue. */
export class ForbiddenError extends HourglassError {}

/** 404 `not_found`: no such endpoint. */
export class NotFoundError extends HourglassError {}

/** 404 `job_not_found`. */
export class JobNotFoundError extends HourglassError {}

/** 404 `queue_not_found`. */
export class QueueNotFoundError extends HourglassError {}

/** 404 `schedule_not_found`. */
export class ScheduleNotFoundError extends HourglassError {}

/** 404 `archive_not_configured`: the server keeps no history. */
export class ArchiveNotConfiguredError extends HourglassError {}

/** 405 `method_not_allowed`. */
export class MethodNotAllowedError extends HourglassError {}

/** 409 `duplicate_id`: a live job has that id. */
export class DuplicateIdError extends HourglassError {}

/** 409 `stale_receipt`: the lease ran out and the job was leased again (or settled). */
export class StaleReceiptError extends HourglassError {}

/** 409 `job_inflight`: a leased job is settled by its consumer, not cancelled or rescheduled. */
export class JobInflightError extends HourglassError {}

/** 409 `job_dead`: a dead job is requeued, not rescheduled. */
export class JobDeadError extends HourglassError {}

/** 409 `job_state`: the job is not in a state the request applies to. */
export class JobStateError extends HourglassError {}

/** 409 `queue_not_empty`: delete it with `force`. */
export class QueueNotEmptyError extends HourglassError {}

/** 409 `partitions_fixed`: a queue's partitions are set at creation. */
export class PartitionsFixedError extends HourglassError {}

/** 413 `payload_too_large`. */
export class PayloadTooLargeError extends HourglassError {}

/** 429 `rate_limited`: too many waiting claims; `retryAfterMs` from the answer's Retry-After. */
export class RateLimitedError extends HourglassError {
  retryAfterMs: number | undefined;
}

/** 503 `redis_unavailable`: the request changed nothing, or its effect is unknown. */
export class RedisUnavailableError extends HourglassError {}

/** 503 `archive_unavailable`. */
export class ArchiveUnavailableError extends HourglassError {}

/** 500 `internal`: the server logged the fault. */
export class InternalError extends HourglassError {}

/**
 * No answer (status 0, code `connection_failed`): the connection was refused or lost, or the host is unknown;
 * `cause` has the socket error. A refused connection is retried before this is thrown, and a lost one too when the
 * call is safe to repeat.
 */
export class ConnectionError extends HourglassError {
  /** Whether the request was sent (the connection was open): then the server may have done it. */
  readonly sent: boolean;

  constructor(message: string, cause: unknown, sent: boolean) {
    super(0, "connection_failed", message, { cause });
    this.sent = sent;
  }
}

/** A request made after the client's `close()` (status 0, code `client_closed`); nothing was sent. */
export class ClientClosedError extends HourglassError {
  constructor(message: string) {
    super(0, "client_closed", message);
  }
}

/** No answer within the request's timeout (status 0, code `timeout`). */
export class TimeoutError extends HourglassError {
  constructor(message: string) {
    super(0, "timeout", message);
  }
}

type ErrorClass = new (status: number, code: string, message: string) => HourglassError;

/** Each code's class and the HTTP status a request answers with it. */
const BY_CODE: Readonly<Record<string, readonly [ErrorClass, number]>> = {
  invalid_json: [InvalidJsonError, 400],
  invalid_field: [InvalidFieldError, 400],
  invalid_queue_name: [InvalidQueueNameError, 400],
  bad_request: [BadRequestError, 400],
  unauthorized: [UnauthorizedError, 401],
  forbidden: [ForbiddenError, 403],
  not_found: [NotFoundError, 404],
  job_not_found: [JobNotFoundError, 404],
  queue_not_found: [QueueNotFoundError, 404],
  schedule_not_found: [ScheduleNotFoundError, 404],
  archive_not_configured: [ArchiveNotConfiguredError, 404],
  method_not_allowed: [MethodNotAllowedError, 405],
  duplicate_id: [DuplicateIdError, 409],
  stale_receipt: [StaleReceiptError, 409],
  job_inflight: [JobInflightError, 409],
  job_dead: [JobDeadError, 409],
  job_state: [JobStateError, 409],
  queue_not_empty: [QueueNotEmptyError, 409],
  partitions_fixed: [PartitionsFixedError, 409],
  payload_too_large: [PayloadTooLargeError, 413],
  rate_limited: [RateLimitedError, 429],
  redis_unavailable: [RedisUnavailableError, 503],
  archive_unavailable: [ArchiveUnavailableError, 503],
  internal: [InternalError, 500],
};

/** The error of an API error object `{"code", "message"}`, as answers and batch results carry it. */
export function errorFromCode(status: number, code: string, message: string): HourglassError {
  const ErrorType = BY_CODE[code]?.[0] ?? HourglassError;
  return new ErrorType(status, code, message);
}

/**
 * The error of a non-2xx answer. Its body should be `{"error": {"code", "message"}}`; anything else (a proxy's
 * page) becomes a plain HourglassError with the code `http_<status>` and the body's start as its message.
 */
export function errorFromAnswer(status: number, body: string, retryAfter: string | undefined): HourglassError {
  const error = parseError(body);
  const result =
    error === undefined
      ? new HourglassError(status, `http_${status}`, `HTTP ${status}: ${body.slice(0, 200)}`)
      : errorFromCode(status, error.code, error.message);
  if (result instanceof RateLimitedError && retryAfter !== undefined && /^\d+$/.test(retryAfter)) {
    result.retryAfterMs = Number(retryAfter) * 1000;
  }
  return result;
}

/** The error of one batch result: the status is the one a single request of it would have answered. */
export function errorFromResult(error: { code: string; message: string }): HourglassError {
  return errorFromCode(BY_CODE[error.code]?.[1] ?? 400, error.code, error.message);
}

function parseError(body: string): { code: string; message: string } | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const error = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    if (typeof error?.code === "string" && typeof error.message === "string") {
      return { code: error.code, message: error.message };
    }
  } catch {
    // not JSON: the caller reports the raw body
  }
  return undefined;
}

/** `unknown field "jobs[1].delay"; did you mean ...` -> `jobs[1].delay`; `ttlMs: must be ...` -> `ttlMs`. */
function fieldOf(message: string): string {
  const unknown = /^unknown field "([^"]*)"/.exec(message);
  if (unknown) {
    return unknown[1] as string;
  }
  const colon = message.indexOf(": ");
  return colon > 0 ? message.slice(0, colon) : "";
}
