// @hourglass/client: a client for the Hourglass HTTP API (docs/API.md, version 1.2).

export { Hourglass, type HourglassOptions } from "./client.js";
export { Queue, type AckResult, type EnqueueResult, type When } from "./queue.js";
export { DeadLetters } from "./dead-letters.js";
export { Schedules } from "./schedules.js";
export { Worker, type Handler, type WorkerOptions } from "./worker.js";
export type { RetryOptions, TransportOptions } from "./transport.js";
export {
  ArchiveNotConfiguredError,
  ArchiveUnavailableError,
  BadRequestError,
  ClientClosedError,
  ConnectionError,
  DuplicateIdError,
  ForbiddenError,
  HourglassError,
  InternalError,
  InvalidFieldError,
  InvalidJsonError,
  InvalidQueueNameError,
  JobDeadError,
  JobInflightError,
  JobNotFoundError,
  JobStateError,
  MethodNotAllowedError,
  NotFoundError,
  PartitionsFixedError,
  PayloadTooLargeError,
  QueueNotEmptyError,
  QueueNotFoundError,
  RateLimitedError,
  RedisUnavailableError,
  ScheduleNotFoundError,
  StaleReceiptError,
  TimeoutError,
  UnauthorizedError,
} from "./errors.js";
export type * from "./types.js";
