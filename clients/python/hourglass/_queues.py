"""Queue calls: list, get, settings and limits (put), pause, resume, delete."""

import enum
from typing import Any, Dict, List, Optional, Union

from ._transport import Transport
from .models import JobOptions, Limits, Queue
from .paths import queue_path, query


class Unset(enum.Enum):
    """The type of :data:`UNSET`."""

    UNSET = "UNSET"


UNSET = Unset.UNSET
"""Leaves a setting as it is; ``None`` instead removes it where the API allows ``null``."""


class QueuesApi:
    _t: Transport

    def queues(self) -> List[Queue]:
        """Every queue the token may see, with its counts (``GET /v1/queues``)."""
        _, answer = self._t.request("GET", "/v1/queues", safe=True)
        return [Queue.from_json(o) for o in answer["queues"]]

    def get_queue(self, queue: str) -> Queue:
        """The queue's counts, settings, limits and counters (``GET /v1/queues/{queue}``)."""
        _, answer = self._t.request("GET", queue_path(queue), safe=True)
        return Queue.from_json(answer)

    def put_queue(
        self,
        queue: str,
        *,
        partitions: Optional[int] = None,
        defaults: Optional[JobOptions] = None,
        delivery: Optional[Dict[str, Any]] = None,
        limits: Union[Limits, None, Unset] = UNSET,
        replica_acks: Union[int, None, Unset] = UNSET,
        compress_above: Union[int, None, Unset] = UNSET,
    ) -> Queue:
        """Creates the queue or updates its settings (``PUT /v1/queues/{queue}``); what is not given stays.
        ``partitions`` is for creation only; ``defaults`` are the job options of jobs that give none; ``delivery``
        is the API's object as is (``{"type": "pull"}``, ``{"type": "http", "url": ...}``, ...); ``limits=None``
        removes the flow-control limits, as ``replica_acks=None`` and ``compress_above=None`` return those to the
        server's default."""
        body: Dict[str, Any] = {}
        if partitions is not None:
            body["partitions"] = partitions
        if defaults is not None:
            body["defaults"] = defaults.to_json()
        if delivery is not None:
            body["delivery"] = delivery
        if limits is not UNSET:
            body["limits"] = None if limits is None else limits.to_json()
        if replica_acks is not UNSET:
            body["replicaAcks"] = replica_acks
        if compress_above is not UNSET:
            body["compressAbove"] = compress_above
        _, answer = self._t.request("PUT", queue_path(queue), body, safe=True)
        return Queue.from_json(answer)

    def pause_queue(self, queue: str) -> Queue:
        """Stops deliveries (claims get no jobs) until :meth:`resume_queue`; enqueues go on."""
        _, answer = self._t.request("POST", queue_path(queue, "/pause"), safe=True)
        return Queue.from_json(answer)

    def resume_queue(self, queue: str) -> Queue:
        _, answer = self._t.request("POST", queue_path(queue, "/resume"), safe=True)
        return Queue.from_json(answer)

    def delete_queue(self, queue: str, *, force: bool = False) -> int:
        """Removes a queue with no jobs (:class:`QueueNotEmpty` otherwise), or with ``force`` the queue and all its
        jobs; answers how many jobs went."""
        _, answer = self._t.request("DELETE", queue_path(queue) + query(force=force or None), safe=not force)
        return 0 if answer is None else int(answer["count"])
