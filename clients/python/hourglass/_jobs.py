"""Producers' calls: enqueue (one and batch), get, cancel, reschedule, jobs by state, dead letters."""

from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

from ._transport import Transport
from .errors import HourglassError, error_from_code
from .models import JSON, Backoff, Enqueued, Job, NewJob, Page
from .paths import job_path, queue_path, query, quote

BATCH_MAX = 1000


class JobsApi:
    _t: Transport

    def enqueue(
        self,
        queue: str,
        payload: JSON,
        *,
        id: Optional[str] = None,
        delay_ms: Optional[int] = None,
        run_at: Optional[int] = None,
        max_attempts: Optional[int] = None,
        backoff: Optional[Backoff] = None,
        visibility_ms: Optional[int] = None,
        ttl_ms: Optional[int] = None,
        priority: Optional[int] = None,
    ) -> Enqueued:
        """Enqueues one job (``POST /v1/queues/{queue}/jobs``). Retried after a 503 or a lost connection only when
        it has an ``id``: a repeat then answers :class:`DuplicateId` instead of making a second job."""
        job = NewJob(payload, id, delay_ms, run_at, max_attempts, backoff, visibility_ms, ttl_ms, priority)
        _, answer = self._t.request("POST", queue_path(queue, "/jobs"), job.to_json(), safe=id is not None)
        return Enqueued.from_json(answer)

    def enqueue_batch(self, queue: str, jobs: Sequence[NewJob]) -> List[Union[Enqueued, HourglassError]]:
        """Enqueues many jobs (``POST .../jobs/batch``, 1000 per request), answering one result per job in order:
        :class:`Enqueued`, or the typed error of that job alone. Retried like :meth:`enqueue` when every job of a
        request has an id."""
        if not jobs:
            raise ValueError("enqueue_batch needs at least one job")
        results: List[Union[Enqueued, HourglassError]] = []
        for start in range(0, len(jobs), BATCH_MAX):
            chunk = jobs[start : start + BATCH_MAX]
            body = {"jobs": [job.to_json() for job in chunk]}
            safe = all(job.id is not None for job in chunk)
            _, answer = self._t.request("POST", queue_path(queue, "/jobs/batch"), body, safe=safe)
            for result in answer["results"]:
                if "error" in result:
                    error = result["error"]
                    results.append(error_from_code(None, error["code"], error["message"]))
                else:
                    results.append(Enqueued.from_json(result))
        return results

    def get_job(self, queue: str, id: str) -> Job:
        """The job (``GET .../jobs/{id}``); :class:`JobNotFound` when there is none."""
        _, answer = self._t.request("GET", job_path(queue, id), safe=True)
        return Job.from_json(answer)

    def cancel(self, queue: str, id: str) -> None:
        """Cancels a delayed, ready or dead job (``DELETE .../jobs/{id}``); :class:`JobInflight` while leased.
        Retried: a repeat after a lost answer may raise :class:`JobNotFound`, the job having gone."""
        self._t.request("DELETE", job_path(queue, id), safe=True)

    def reschedule(self, queue: str, id: str, *, delay_ms: Optional[int] = None, run_at: Optional[int] = None) -> Job:
        """Moves a delayed or ready job to a new due time (``PUT .../jobs/{id}/schedule``)."""
        body: Dict[str, Any] = {}
        if delay_ms is not None:
            body["delayMs"] = delay_ms
        if run_at is not None:
            body["runAt"] = run_at
        _, answer = self._t.request("PUT", job_path(queue, id, "/schedule"), body, safe=True)
        return Job.from_json(answer)

    def jobs(self, queue: str, state: str, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> Page[Job]:
        """One page of the jobs in ``state`` (``delayed``, ``ready``, ``inflight`` or ``dead``), in due order."""
        path = queue_path(queue, "/jobs") + query(state=state, limit=limit, cursor=cursor)
        _, answer = self._t.request("GET", path, safe=True)
        return Page([Job.from_json(o) for o in answer["jobs"]], answer.get("next"))

    def iter_jobs(self, queue: str, state: str, *, page_size: Optional[int] = None) -> Iterator[Job]:
        """Every job in ``state``, following the cursors page by page."""
        cursor: Optional[str] = None
        while True:
            page = self.jobs(queue, state, limit=page_size, cursor=cursor)
            yield from page.items
            if page.next is None:
                return
            cursor = page.next

    def dead_letters(self, queue: str, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> Page[Job]:
        """One page of the queue's dead jobs (``GET .../dead``), in order of death."""
        _, answer = self._t.request("GET", queue_path(queue, "/dead") + query(limit=limit, cursor=cursor), safe=True)
        return Page([Job.from_json(o) for o in answer["jobs"]], answer.get("next"))

    def requeue_dead(self, queue: str, id: str) -> None:
        """Makes one dead job ready again (``POST .../dead/{id}/requeue``). Retried: a repeat after a lost answer
        may raise :class:`JobState`, the job being ready already."""
        self._t.request("POST", queue_path(queue, "/dead/" + quote(id) + "/requeue"), safe=True)

    def requeue_all_dead(self, queue: str) -> int:
        """Makes every dead job of the queue ready again; answers how many (``POST .../dead/requeue``)."""
        _, answer = self._t.request("POST", queue_path(queue, "/dead/requeue"), safe=False)
        return int(answer["count"])

    def purge_dead(self, queue: str) -> int:
        """Deletes every dead job of the queue; answers how many (``DELETE .../dead``)."""
        _, answer = self._t.request("DELETE", queue_path(queue, "/dead"), safe=False)
        return int(answer["count"])

