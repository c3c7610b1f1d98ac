"""The Worker's two background loops besides claiming: batch acks and lease extension."""

import logging
import threading
import time
from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

from .errors import ConflictError, HourglassError, NotFoundError
from .models import ClaimedJob

if TYPE_CHECKING:
    from .client import Client

log = logging.getLogger("hourglass.worker")

ACK_BATCH_MAX = 1000
EXTEND_AT = 0.5
"""A lease is extended once this share of it has passed (so a failed extend has the other half to try again)."""


class AckBatcher:
    """Sends acks in batches (``POST .../ack``) from one thread: it waits for the first ack, then sends every ack
    collected so far in one request; acks that come in meanwhile go in the next. So an ack waits at most for the
    request before it, and under load each request carries many."""

    def __init__(self, client: "Client", queue: str) -> None:
        self._client = client
        self._queue = queue
        self._pending: List[Tuple[str, str]] = []
        self._cond = threading.Condition()
        self._closed = False
        self.acked = 0
        self.failed = 0
        self.requests = 0
        self._thread = threading.Thread(target=self._run, name=f"hourglass-acks-{queue}", daemon=True)
        self._thread.start()

    def add(self, job: ClaimedJob) -> None:
        with self._cond:
            self._pending.append((job.id, job.receipt))
            closed = self._closed
            self._cond.notify()
        if closed:  # a handler that outlived stop()'s timeout: its ack goes at once
            self._flush()

    def close(self, timeout: Optional[float]) -> bool:
        """Sends what is pending, then stops; whether it finished within ``timeout`` seconds."""
        with self._cond:
            self._closed = True
            self._cond.notify()
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._closed:
                    self._cond.wait()
                if not self._pending:
                    return
            self._flush()

    def _flush(self) -> None:
        with self._cond:
            batch = self._pending[:ACK_BATCH_MAX]
            del self._pending[:ACK_BATCH_MAX]
        if not batch:
            return
        try:
            results = self._client.ack_batch(self._queue, batch)
        except Exception as e:  # any failure, even an answer that is not the API's: this thread goes on
            self._count(0, len(batch), 1)
            log.warning("hourglass: %d acks on queue %s failed (the jobs come back when their leases end): %s",
                        len(batch), self._queue, e, exc_info=not isinstance(e, HourglassError))
            return
        failed = [r for r in results if not r.acked]
        for r in failed:
            log.warning("hourglass: ack of job %s on queue %s failed: %s", r.id, self._queue, r.error)
        self._count(len(results) - len(failed), len(failed), 1)

    def _count(self, acked: int, failed: int, requests: int) -> None:
        with self._cond:
            self.acked += acked
            self.failed += failed
            self.requests += requests


class LeaseKeeper:
    """Extends the lease of every job the worker holds (claimed, waiting or running) once half of it has passed,
    for as long as the worker holds it; a job whose lease cannot be extended (its receipt is stale) is dropped from
    the keeper with a warning: it will be delivered again."""

    def __init__(self, client: "Client", queue: str) -> None:
        self._client = client
        self._queue = queue
        self._held: Dict[str, Tuple[str, int, float]] = {}  # id -> (receipt, lease ms, monotonic time to extend)
        self._cond = threading.Condition()
        self._wakes_at = float("inf")  # when the keeper's thread wakes next (monotonic)
        self._closed = False
        self.extended = 0
        self._thread = threading.Thread(target=self._run, name=f"hourglass-leases-{queue}", daemon=True)
        self._thread.start()

    def hold(self, job: ClaimedJob, lease_ms: int, leased_at: float) -> None:
        """Keeps ``job`` leased; its lease of ``lease_ms`` began no earlier than ``leased_at`` (monotonic)."""
        extend_at = leased_at + lease_ms / 1000 * EXTEND_AT
        with self._cond:
            self._held[job.id] = (job.receipt, lease_ms, extend_at)
            if extend_at < self._wakes_at:  # only then: a notify per job would cost a scan per job
                self._wakes_at = extend_at
                self._cond.notify()

    def release(self, job_id: str) -> None:
        with self._cond:
            self._held.pop(job_id, None)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify()
        self._thread.join()

    def _run(self) -> None:
        while True:
            with self._cond:
                due = self._wait_for_due()
                if due is None:
                    return
            for job_id, receipt, lease_ms in due:
                self._extend(job_id, receipt, lease_ms)

    def _wait_for_due(self) -> Optional[List[Tuple[str, str, int]]]:
        """Waits (holding the condition) until some lease is due for extension; None once closed."""
        while not self._closed:
            now = time.monotonic()
            due = [(i, r, ms) for i, (r, ms, at) in self._held.items() if at <= now]
            if due:
                return due
            self._wakes_at = min((at for _, _, at in self._held.values()), default=float("inf"))
            self._cond.wait(None if self._wakes_at == float("inf") else self._wakes_at - now)
        return None

    def _extend(self, job_id: str, receipt: str, lease_ms: int) -> None:
        sent = time.monotonic()
        extended = False
        try:
            self._client.extend(self._queue, job_id, receipt, lease_ms)
            extended = True
        except (ConflictError, NotFoundError) as e:
            log.warning("hourglass: the lease of job %s on queue %s was lost (it will be delivered again): %s",
                        job_id, self._queue, e)
            self.release(job_id)
            return
        except Exception as e:  # any other failure, even an answer that is not the API's: this thread goes on
            log.warning("hourglass: extending the lease of job %s on queue %s failed; trying again: %s",
                        job_id, self._queue, e, exc_info=not isinstance(e, HourglassError))
            sent -= lease_ms / 1000 * EXTEND_AT * 0.8  # try again after a tenth of the lease
        with self._cond:
            if job_id in self._held and self._held[job_id][0] == receipt:
                self._held[job_id] = (receipt, lease_ms, sent + lease_ms / 1000 * EXTEND_AT)
            self.extended += extended
