"""Schedule calls (recurring jobs): put, get, list, pause, resume, delete."""

from typing import Any, Dict, List, Optional

from ._transport import Transport
from .models import JSON, Backoff, JobOptions, Schedule
from .paths import queue_path, schedule_path


class SchedulesApi:
    _t: Transport

    def put_schedule(
        self,
        queue: str,
        id: str,
        payload: JSON,
        *,
        cron: Optional[str] = None,
        every: Optional[int] = None,
        time_zone: Optional[str] = None,
        start_at: Optional[int] = None,
        end_at: Optional[int] = None,
        max_attempts: Optional[int] = None,
        backoff: Optional[Backoff] = None,
        visibility_ms: Optional[int] = None,
        ttl_ms: Optional[int] = None,
        priority: Optional[int] = None,
    ) -> Schedule:
        """Creates or replaces a schedule (``PUT .../schedules/{id}``): one job per occurrence of ``cron`` (Unix, 5
        fields, in ``time_zone``, default UTC) or of ``every`` ms, carrying ``payload`` and the job options.
        Idempotent, so retried."""
        body: Dict[str, Any] = {"payload": payload}
        for name, value in (("cron", cron), ("every", every), ("timeZone", time_zone)):
            if value is not None:
                body[name] = value
        for name, value in (("startAt", start_at), ("endAt", end_at)):
            if value is not None:
                body[name] = value
        body.update(JobOptions(max_attempts, backoff, visibility_ms, ttl_ms, priority).to_json())
        _, answer = self._t.request("PUT", schedule_path(queue, id), body, safe=True)
        return Schedule.from_json(answer)

    def get_schedule(self, queue: str, id: str) -> Schedule:
        """The schedule with its next three runs; :class:`ScheduleNotFound` when there is none."""
        _, answer = self._t.request("GET", schedule_path(queue, id), safe=True)
        return Schedule.from_json(answer)

    def schedules(self, queue: str) -> List[Schedule]:
        """Every schedule of the queue."""
        _, answer = self._t.request("GET", queue_path(queue, "/schedules"), safe=True)
        return [Schedule.from_json(o) for o in answer["schedules"]]

    def pause_schedule(self, queue: str, id: str) -> Schedule:
        """Stops the schedule's occurrences (its pending one is removed) until :meth:`resume_schedule`."""
        _, answer = self._t.request("POST", schedule_path(queue, id, "/pause"), safe=True)
        return Schedule.from_json(answer)

    def resume_schedule(self, queue: str, id: str) -> Schedule:
        _, answer = self._t.request("POST", schedule_path(queue, id, "/resume"), safe=True)
        return Schedule.from_json(answer)

    def delete_schedule(self, queue: str, id: str) -> None:
        """Deletes the schedule and its pending occurrence. Retried: a repeat after a lost answer may raise
        :class:`ScheduleNotFound`."""
        self._t.request("DELETE", schedule_path(queue, id), safe=True)
