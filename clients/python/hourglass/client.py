"""The client: one object for the calls of the Hourglass HTTP API (API.md 1.2), all but the archive's history
(``GET .../history``, ``.../history/{id}``) and the operators' endpoints (``/metrics``, ``/openapi.json``, the
dashboard)."""

from typing import Callable, Optional

from ._consume import ConsumeApi
from ._jobs import JobsApi
from ._queues import QueuesApi
from ._schedules import SchedulesApi
from ._transport import NO_RETRY, Retry, Transport
from .errors import HourglassError


class Client(JobsApi, ConsumeApi, QueuesApi, SchedulesApi):
    """A client of one Hourglass server, safe to share between threads (it keeps a pool of keep-alive connections).

    ``url``: the server, e.g. ``http://127.0.0.1:8080``. ``token``: sent as ``Authorization: Bearer <token>`` when
    the server has auth on. ``timeout``: seconds to connect and to wait for each answer (a claim waits its
    ``wait_ms`` more). ``retry``: how often and how long a failed call is tried again (see :class:`Retry`);
    ``on_retry`` is told of each failure that will be retried, with the count of tries so far.
    """

    def __init__(
        self,
        url: str = "http://127.0.0.1:8080",
        *,
        token: Optional[str] = None,
        timeout: float = 30.0,
        retry: Retry = Retry(),
        on_retry: Optional[Callable[[HourglassError, int], None]] = None,
    ) -> None:
        self._t = Transport(url, token, timeout, retry, on_retry=on_retry)

    def ready(self) -> bool:
        """Whether the server answers ``GET /health/ready`` with 200 (it reaches its Redis); not retried."""
        try:
            self._t.request("GET", "/health/ready", safe=False, retry=NO_RETRY)
            return True
        except HourglassError:
            return False

    def close(self) -> None:
        """Closes the idle connections."""
        self._t.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
