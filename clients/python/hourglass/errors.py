"""Typed errors: one class per API error code, all under :class:`HourglassError`.

The server answers every failure with ``{"error": {"code": "<snake_case>", "message": "..."}}`` (API.md, "Errors").
:func:`error_from_answer` turns such an answer into the class registered for its code; a code this client does not
know becomes a plain :class:`HourglassError`, so a newer server never breaks an older client.
"""

import re
from typing import Any, Dict, Optional, Type


class HourglassError(Exception):
    """A request the server refused, or could not be made.

    ``status`` is the HTTP status (``None`` when no answer came), ``code`` the API's error code and ``message`` the
    server's sentence.
    """

    code_name = ""

    def __init__(self, status: Optional[int], code: str, message: str) -> None:
        super().__init__(f"{code}: {message}" if status is None else f"HTTP {status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


class ConnectionFailed(HourglassError):
    """No answer: the server could not be reached, or the connection was lost before its answer.

    ``sent`` says whether the request may have reached the server (its effect is then unknown).
    """

    code_name = "connection_failed"

    def __init__(self, message: str, sent: bool) -> None:
        super().__init__(None, self.code_name, message)
        self.sent = sent


# Groups by status, so that callers can catch every "not found" or every conflict at once.
class BadRequestError(HourglassError):
    """400: the request was malformed; nothing was written."""


class AuthError(HourglassError):
    """401 or 403: no token, a wrong one, or one without the role or the queue."""


class NotFoundError(HourglassError):
    """404: what the request names does not exist."""


class ConflictError(HourglassError):
    """409: the request conflicts with the current state."""


class UnavailableError(HourglassError):
    """503: a store the server needs did not answer; the request changed nothing or its effect is unknown."""


class InvalidJson(BadRequestError):
    code_name = "invalid_json"


class InvalidField(BadRequestError):
    """400 ``invalid_field``. ``field`` is the field the server named (``delayMs``, ``jobs[1].priority``,
    ``limits.rate.max``), or ``None`` when its message names none."""

    code_name = "invalid_field"
    _UNKNOWN = re.compile(r'^unknown field "([^"]+)"')
    _NAMED = re.compile(r"^([A-Za-z0-9_.\[\]-]+): ")

    def __init__(self, status: Optional[int], code: str, message: str) -> None:
        super().__init__(status, code, message)
        match = self._UNKNOWN.match(message) or self._NAMED.match(message)
        self.field: Optional[str] = match.group(1) if match else None


class InvalidQueueName(BadRequestError):
    code_name = "invalid_queue_name"


class BadRequest(BadRequestError):
    code_name = "bad_request"


class Unauthorized(AuthError):
    code_name = "unauthorized"


class Forbidden(AuthError):
    code_name = "forbidden"


class NotFound(NotFoundError):
    code_name = "not_found"


class JobNotFound(NotFoundError):
    code_name = "job_not_found"


class QueueNotFound(NotFoundError):
    code_name = "queue_not_found"


class ScheduleNotFound(NotFoundError):
    code_name = "schedule_not_found"


class ArchiveNotConfigured(NotFoundError):
    code_name = "archive_not_configured"


class MethodNotAllowed(HourglassError):
    code_name = "method_not_allowed"


class DuplicateId(ConflictError):
    code_name = "duplicate_id"


class StaleReceipt(ConflictError):
    code_name = "stale_receipt"


class JobInflight(ConflictError):
    code_name = "job_inflight"


class JobDead(ConflictError):
    code_name = "job_dead"


class JobState(ConflictError):
    code_name = "job_state"


class QueueNotEmpty(ConflictError):
    code_name = "queue_not_empty"


class PartitionsFixed(ConflictError):
    code_name = "partitions_fixed"


class PayloadTooLarge(HourglassError):
    code_name = "payload_too_large"


class RateLimited(HourglassError):
    code_name = "rate_limited"


class InternalError(HourglassError):
    code_name = "internal"


class RedisUnavailable(UnavailableError):
    code_name = "redis_unavailable"


class ArchiveUnavailable(UnavailableError):
    code_name = "archive_unavailable"


def _all_subclasses(cls: Type[HourglassError]) -> Dict[str, Type[HourglassError]]:
    found: Dict[str, Type[HourglassError]] = {}
    for sub in cls.__subclasses__():
        if sub.code_name and sub is not ConnectionFailed:
            found[sub.code_name] = sub
        found.update(_all_subclasses(sub))
    return found


ERRORS_BY_CODE: Dict[str, Type[HourglassError]] = _all_subclasses(HourglassError)


def error_from_answer(status: int, body: Any) -> HourglassError:
    """The typed error for a non-2xx answer (``body`` is its decoded JSON, or whatever it was)."""
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and isinstance(error.get("code"), str):
        code = error["code"]
        message = str(error.get("message", ""))
    else:
        code = "http_" + str(status)
        message = f"an answer without the API's error shape: {str(body)[:200]}"
    return error_from_code(status, code, message)


def error_from_code(status: Optional[int], code: str, message: str) -> HourglassError:
    """The typed error for an error object, as a batch result carries it."""
    return ERRORS_BY_CODE.get(code, HourglassError)(status, code, message)
