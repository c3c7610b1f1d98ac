"""Consumers' calls: claim (long poll), ack (one and batch), nack, extend."""

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from ._transport import CancelScope, Cancelled, Transport
from .errors import error_from_code
from .models import AckResult, ClaimedJob
from .paths import job_path, queue_path

AckItem = Union[ClaimedJob, Tuple[str, str]]
ERROR_MAX_CHARS = 1000


class ConsumeApi:
    _t: Transport

    def claim(
        self, queue: str, *, max: int = 1, wait_ms: int = 0, visibility_ms: Optional[int] = None
    ) -> List[ClaimedJob]:
        """Leases up to ``max`` (1..100) due jobs (``POST .../claim``), waiting up to ``wait_ms`` (0..30000) for the
        first; an empty list when none came in time. Not retried after the request was sent: a lost answer's jobs
        come back when their lease ends."""
        return self._claim(queue, max, wait_ms, visibility_ms, None)

    def _claim(
        self, queue: str, max: int, wait_ms: int, visibility_ms: Optional[int], cancel: Optional[CancelScope]
    ) -> List[ClaimedJob]:
        body: Dict[str, Any] = {"max": max, "waitMs": wait_ms}
        if visibility_ms is not None:
            body["visibilityMs"] = visibility_ms
        try:
            _, answer = self._t.request(
                "POST", queue_path(queue, "/claim"), body, safe=False, extra_timeout=wait_ms / 1000, cancel=cancel
            )
        except Cancelled:
            return []
        return [ClaimedJob.from_json(queue, o) for o in answer["jobs"]]

    def ack(self, queue: str, id: str, receipt: str) -> None:
        """Settles a claimed job as done (``POST .../jobs/{id}/ack``); :class:`StaleReceipt` when its lease ran out
        and it was leased again. Retried: a repeat after a lost answer may raise :class:`JobNotFound`."""
        self._t.request("POST", job_path(queue, id, "/ack"), {"receipt": receipt}, safe=True)

    def ack_batch(self, queue: str, acks: Sequence[AckItem]) -> List[AckResult]:
        """Acks many claimed jobs in one request (``POST .../ack``, 1..1000), answering one result per ack in
        order; one stale receipt does not fail the others. Takes :class:`ClaimedJob` values or (id, receipt)
        pairs."""
        items = [(a.id, a.receipt) if isinstance(a, ClaimedJob) else a for a in acks]
        body = {"acks": [{"id": id, "receipt": receipt} for id, receipt in items]}
        _, answer = self._t.request("POST", queue_path(queue, "/ack"), body, safe=True)
        results = []
        for result in answer["results"]:
            error = result.get("error")
            typed = None if error is None else error_from_code(None, error["code"], error["message"])
            results.append(AckResult(result.get("id"), typed))
        return results

    def nack(
        self,
        queue: str,
        id: str,
        receipt: str,
        *,
        error: Optional[str] = None,
        delay_ms: Optional[int] = None,
        dead: bool = False,
    ) -> None:
        """Settles a claimed job as failed (``POST .../jobs/{id}/nack``): retried by its backoff (or after
        ``delay_ms``), or dead when ``dead`` or its attempts are spent. ``error`` becomes its ``lastError`` (one line,
        at most 1,000 characters: longer text is cut here)."""
        body: Dict[str, Any] = {"receipt": receipt}
        if error is not None:
            body["error"] = one_line(error)
        if delay_ms is not None:
            body["delayMs"] = delay_ms
        if dead:
            body["dead"] = True
        self._t.request("POST", job_path(queue, id, "/nack"), body, safe=False)

    def extend(self, queue: str, id: str, receipt: str, visibility_ms: int) -> int:
        """Extends a claimed job's lease to ``visibility_ms`` from now (``POST .../jobs/{id}/extend``); answers the
        new ``leaseUntil`` (epoch ms)."""
        body = {"receipt": receipt, "visibilityMs": visibility_ms}
        _, answer = self._t.request("POST", job_path(queue, id, "/extend"), body, safe=True)
        return int(answer["leaseUntil"])


def one_line(text: str) -> str:
    """``text`` as the API keeps an error: one line of at most 1,000 characters."""
    line = " ".join(text.split())
    return line if len(line) <= ERROR_MAX_CHARS else line[: ERROR_MAX_CHARS - 3] + "..."
