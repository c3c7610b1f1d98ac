"""HTTP/1.1 with keep-alive connections, JSON bodies and bounded retries with backoff.

One :class:`Transport` serves many threads: each request takes an idle connection from a pool (or opens one) and puts
it back once the answer has been read whole. A pooled connection the server has closed meanwhile is noticed before
reuse (its socket reads as ready) and dropped, so a stale connection does not cost a failed request.

What is retried (with :class:`Retry`'s backoff, at most ``Retry.attempts`` tries in all):
- a connection that could not be opened: always, since nothing was sent;
- a 503 answer, and a connection lost after the request was sent: only for requests marked ``safe``, whose repeat
  cannot do harm (reads, PUTs, acks, extends, ...). For the others the effect is unknown, and the error says so.
"""

import http.client
import json
import random
import select
import socket
import threading
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Set, Tuple

from .errors import ConnectionFailed, HourglassError, error_from_answer

USER_AGENT = "hourglass-python/0.1.0"


@dataclass(frozen=True)
class Retry:
    """How a failed request is tried again: up to ``attempts`` tries in all, waiting ``base_delay`` seconds before
    the second, doubling up to ``max_delay``, each wait shortened at random by up to a fifth (so that many clients
    do not retry in step)."""

    attempts: int = 6
    base_delay: float = 0.2
    max_delay: float = 5.0

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError(f"Retry.attempts must be at least 1, was {self.attempts}")
        if self.base_delay < 0 or self.max_delay < self.base_delay:
            raise ValueError(f"Retry needs 0 <= base_delay <= max_delay, was {self.base_delay}, {self.max_delay}")

    def delay(self, failed_attempts: int) -> float:
        """Seconds to wait after ``failed_attempts`` failed tries (1 for the first)."""
        full: float = min(self.max_delay, self.base_delay * 2.0 ** (failed_attempts - 1))
        return full * (1 - 0.2 * random.random())


NO_RETRY = Retry(attempts=1)


class Cancelled(Exception):
    """The request was cancelled (by :class:`CancelScope`) before it was sent."""


class CancelScope:
    """Lets another thread end long polls early: :meth:`cancel` half-closes the connections that carry them.

    The server sees the half-close, gives up the claim (handing back any job it leased for it) and answers it with
    no jobs, or with the jobs of an answer that was already on its way; either answer is read as usual.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._socks: Set[socket.socket] = set()
        self.cancelled = False

    def cancel(self) -> None:
        with self._lock:
            self.cancelled = True
            for sock in self._socks:
                try:
                    sock.shutdown(socket.SHUT_WR)
                except OSError:
                    pass  # already closed: that request is over anyway

    def _enter(self, sock: socket.socket) -> None:
        with self._lock:
            if self.cancelled:
                raise Cancelled()
            self._socks.add(sock)

    def _exit(self, sock: socket.socket) -> None:
        with self._lock:
            self._socks.discard(sock)


class Transport:
    """Sends requests to one Hourglass server; safe to share between threads."""

    def __init__(
        self,
        url: str,
        token: Optional[str],
        timeout: float,
        retry: Retry,
        max_idle: int = 32,
        on_retry: Optional[Callable[[HourglassError, int], None]] = None,
    ) -> None:
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ValueError(f"the server URL must be http://host[:port] or https://host[:port], was {url!r}")
        self._https = parsed.scheme == "https"
        self._host = parsed.hostname
        self._port = parsed.port or (443 if self._https else 80)
        self._base_path = parsed.path.rstrip("/")
        self._headers = {"User-Agent": USER_AGENT, "Accept": "application/json"}
        if token:
            self._headers["Authorization"] = "Bearer " + token
        self._timeout = timeout
        self._retry = retry
        self._max_idle = max_idle
        self._on_retry = on_retry
        self._idle: List[http.client.HTTPConnection] = []
        self._lock = threading.Lock()

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        safe: bool,
        extra_timeout: float = 0.0,
        cancel: Optional[CancelScope] = None,
        retry: Optional[Retry] = None,
    ) -> Tuple[int, Any]:
        """Sends one request; answers (status, decoded JSON or None) for a 2xx answer, raises the typed error
        otherwise. ``safe``: may be sent again after a 503 or a connection lost mid-request. ``retry`` overrides
        the transport's policy for this request."""
        policy = retry or self._retry
        payload = None if body is None else json.dumps(body, separators=(",", ":")).encode("utf-8")
        failures = 0
        while True:
            try:
                status, answer = self._once(method, self._base_path + path, payload, extra_timeout, cancel)
                if 200 <= status < 300:
                    return status, answer
                error = error_from_answer(status, answer)
                if status != 503 or not safe:
                    raise error
            except ConnectionFailed as lost:
                if lost.sent and not safe:
                    raise
                error = lost
            failures += 1
            if failures >= policy.attempts:
                raise error
            if self._on_retry is not None:
                self._on_retry(error, failures)
            time.sleep(policy.delay(failures))  # backoff between tries, not synchronisation

    def close(self) -> None:
        """Closes the idle connections (requests in flight close theirs when they end)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()

    def _once(
        self, method: str, path: str, payload: Optional[bytes], extra_timeout: float, cancel: Optional[CancelScope]
    ) -> Tuple[int, Any]:
        conn = self._take()
        timeout = self._timeout + extra_timeout
        try:
            if conn.sock is None:
                conn.timeout = timeout
                conn.connect()
            else:
                conn.sock.settimeout(timeout)
        except OSError as e:
            conn.close()
            raise ConnectionFailed(f"could not connect to {self._host}:{self._port}: {e}", sent=False) from e
        headers = dict(self._headers)
        if payload is not None:
            headers["Content-Type"] = "application/json"
        reusable = False
        sock = conn.sock
        assert sock is not None  # connected above
        try:
            if cancel is not None:
                cancel._enter(sock)
            conn.request(method, path, body=payload, headers=headers)
            response = conn.getresponse()
            data = response.read()
            reusable = not response.will_close and (cancel is None or not cancel.cancelled)
        except Cancelled:
            reusable = True
            raise
        except (OSError, http.client.HTTPException) as e:
            raise ConnectionFailed(f"{method} {path}: connection lost before the answer: {e!r}", sent=True) from e
        finally:
            if cancel is not None:
                cancel._exit(sock)
            if reusable:
                self._give_back(conn)
            else:
                conn.close()
        return response.status, _decode(data)

    def _take(self) -> http.client.HTTPConnection:
        while True:
            with self._lock:
                conn = self._idle.pop() if self._idle else None
            if conn is None:
                if self._https:
                    return http.client.HTTPSConnection(self._host, self._port, timeout=self._timeout)
                return http.client.HTTPConnection(self._host, self._port, timeout=self._timeout)
            if conn.sock is not None and not _closed_by_peer(conn.sock):
                return conn
            conn.close()

    def _give_back(self, conn: http.client.HTTPConnection) -> None:
        with self._lock:
            if len(self._idle) < self._max_idle:
                self._idle.append(conn)
                return
        conn.close()


def _closed_by_peer(sock: socket.socket) -> bool:
    """An idle keep-alive socket that reads as ready has been closed (or reset) by the server."""
    try:
        readable, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)


def _decode(data: bytes) -> Any:
    if not data:
        return None
    try:
        return json.loads(data)
    except ValueError:
        return data.decode("utf-8", "replace")
