"""A worker: long-polls a queue, runs a handler on each job in a pool of threads, acks in batches, extends the
leases of long jobs, nacks failures with their error, and stops gracefully."""

import logging
import queue as queues
import threading
import time
from dataclasses import dataclass
from typing import Callable, List, Optional

from ._consume import one_line
from ._transport import CancelScope
from ._worker_loops import AckBatcher, LeaseKeeper
from .client import Client
from .errors import HourglassError
from .models import ClaimedJob

log = logging.getLogger("hourglass.worker")

Handler = Callable[[ClaimedJob], None]
CLAIM_MAX = 100


@dataclass(frozen=True)
class WorkerStats:
    """What a worker did so far: jobs handled, of which failed (nacked), acks confirmed by the server, acks that
    failed, batch ack requests sent, lease extensions."""

    handled: int
    failed: int
    acked: int
    ack_failures: int
    ack_requests: int
    extensions: int


class Worker:
    """Runs ``handler`` on each job of ``queue``, ``concurrency`` jobs at a time.

    ``pollers`` threads (2) long-poll (``POST .../claim`` with ``wait_ms``, at most 100 jobs a claim; two, so that
    one claim waits at the server while the answer of the other is read) while the worker holds fewer jobs than its
    threads plus a prefetch, so that one claim can carry many short jobs. The prefetch adapts:
    at most ``prefetch`` (default 1,000), and no more jobs than the threads finish, at their mean handler time so
    far, within a quarter of the lease (at most 1 s; before the first job ends, as many as the threads), so a
    prefetched job starts soon and other workers get their share; ``prefetch=0`` holds no more jobs than threads.

    A handler that returns acks the job: acks are sent in batches (``POST .../ack``) by one more thread, each batch
    as soon as the one before it is answered. A handler that raises nacks the job with its error
    (``ExceptionType: message``) as the job's ``lastError``, so it is retried by its backoff or goes dead. While
    the worker holds a job (waiting or running) its lease is extended each time half of it has passed, so a long
    job is not delivered again. ``visibility_ms`` (default 30,000, the queue's default) is the lease each claim and
    extension asks for, whatever the job's or queue's own ``visibilityMs``. Extensions are timed by the local
    monotonic clock from the moment the claim was sent (the lease cannot have begun earlier), never by comparing the
    server's ``leaseUntil`` with the local clock, so a skew between the two clocks does not matter.

    A handler that raises anything, even ``SystemExit`` or ``KeyboardInterrupt``, has its job nacked (those two are
    logged too) and its thread goes on; a claim that fails in any way (an error answer, an answer that is not the
    API's) is logged and tried again after a backoff.

    :meth:`stop` stops claiming (a waiting long poll is given up, and any job the server had leased for it handed
    back at once), lets the handlers finish every job already claimed (the prefetched ones too: the API has no way
    to hand a claimed job back without counting an attempt), sends the last acks, and returns. Delivery is at least
    once: a handler may see a job again after a crash, so make it idempotent by ``job.id``.
    """

    def __init__(
        self,
        client: Client,
        queue: str,
        handler: Handler,
        *,
        concurrency: int = 4,
        prefetch: int = 1000,
        wait_ms: int = 10_000,
        visibility_ms: int = 30_000,
        pollers: int = 2,
    ) -> None:
        if pollers < 1:
            raise ValueError(f"pollers must be at least 1, was {pollers}")
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, was {concurrency}")
        if prefetch < 0:
            raise ValueError(f"prefetch must be at least 0, was {prefetch}")
        if not 0 <= wait_ms <= 30_000:
            raise ValueError(f"wait_ms must be 0..30000 (the API's range), was {wait_ms}")
        if not isinstance(visibility_ms, int) or visibility_ms < 1000:
            raise ValueError(f"visibility_ms must be at least 1000, was {visibility_ms}")
        self._client = client
        self._queue = queue
        self._handler = handler
        self._concurrency = concurrency
        self._pollers = pollers
        self._wait_ms = wait_ms
        self._visibility_ms = visibility_ms
        self._prefetch = prefetch
        self._window_s = min(1.0, visibility_ms / 4000)
        self._held = 0  # jobs claimed and not yet finished
        self._mean_handler_s: Optional[float] = None
        self._free_cond = threading.Condition()
        self._stopping = threading.Event()
        self._cancel = CancelScope()
        self._jobs: "queues.SimpleQueue[Optional[ClaimedJob]]" = queues.SimpleQueue()
        self._threads: List[threading.Thread] = []
        self._acks: Optional[AckBatcher] = None
        self._leases: Optional[LeaseKeeper] = None
        self._handled = 0
        self._failed = 0
        self._stopped = False

    def start(self) -> "Worker":
        """Starts the threads and returns at once."""
        if self._threads:
            raise RuntimeError("this worker was started already; make a new one")
        self._acks = AckBatcher(self._client, self._queue)
        self._leases = LeaseKeeper(self._client, self._queue)
        for i in range(self._pollers):
            self._threads.append(threading.Thread(target=self._claim_loop, name=f"hourglass-claim-{self._queue}-{i}"))
        for i in range(self._concurrency):
            self._threads.append(threading.Thread(target=self._handle_loop, name=f"hourglass-{self._queue}-{i}"))
        for thread in self._threads:
            thread.daemon = True
            thread.start()
        return self

    def stop(self, timeout: Optional[float] = None) -> bool:
        """Stops gracefully (see the class); whether every handler finished within ``timeout`` seconds (``None``:
        waits for them). Handlers still running past it go on, and their acks are sent when they finish."""
        if self._stopped or not self._threads:
            return True
        self._stopped = True
        deadline = None if timeout is None else time.monotonic() + timeout
        self._stopping.set()
        self._cancel.cancel()
        with self._free_cond:
            self._free_cond.notify_all()
        pollers, handlers = self._threads[: self._pollers], self._threads[self._pollers :]
        for thread in pollers:
            thread.join(_left(deadline))
        for _ in handlers:
            self._jobs.put(None)  # after every claimed job, so each handler takes its share first
        for thread in handlers:
            thread.join(_left(deadline))
        finished = not any(thread.is_alive() for thread in self._threads)
        assert self._acks is not None and self._leases is not None
        self._leases.close()
        return self._acks.close(_left(deadline)) and finished

    def run(self) -> None:
        """Starts the worker and blocks until :meth:`stop` is called from another thread, or until Ctrl-C (which
        stops it gracefully)."""
        self.start()
        try:
            self._stopping.wait()
        except KeyboardInterrupt:
            pass
        self.stop()

    @property
    def stopping(self) -> bool:
        """Whether :meth:`stop` was called (the worker claims no more)."""
        return self._stopping.is_set()

    def stats(self) -> WorkerStats:
        acks, leases = self._acks, self._leases
        return WorkerStats(
            self._handled,
            self._failed,
            acks.acked if acks else 0,
            acks.failed if acks else 0,
            acks.requests if acks else 0,
            leases.extended if leases else 0,
        )

    def __enter__(self) -> "Worker":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _claim_loop(self) -> None:
        failures = 0
        while not self._stopping.is_set():
            wanted = self._take_free()
            if wanted == 0:
                return
            sent = time.monotonic()  # the lease began no earlier: extensions are timed from here, locally
            try:
                jobs = self._client._claim(self._queue, wanted, self._wait_ms, self._visibility_ms, self._cancel)
            except Exception as e:  # any failure, even an answer that is not the API's: the poller goes on
                self._give_free(wanted)
                if self._stopping.is_set():  # a long poll given up by stop() through a proxy that cut it short
                    log.debug("hourglass: claim on queue %s ended by stop(): %s", self._queue, _describe(e))
                    return
                failures += 1
                pause = min(5.0, 0.1 * 2 ** (failures - 1))
                log.warning("hourglass: claim on queue %s failed, again in %.1f s: %s", self._queue, pause,
                            _describe(e), exc_info=not isinstance(e, HourglassError))
                self._stopping.wait(pause)  # the backoff, cut short by stop()
                continue
            failures = 0
            if len(jobs) < wanted:
                self._give_free(wanted - len(jobs))
            assert self._leases is not None
            for job in jobs:
                self._leases.hold(job, self._visibility_ms, sent)
                self._jobs.put(job)

    def _take_free(self) -> int:
        """Waits until the worker may hold more jobs; reserves places for them (at most a claim's worth). 0 once
        stopping."""
        with self._free_cond:
            while self._capacity() <= self._held and not self._stopping.is_set():
                self._free_cond.wait()
            if self._stopping.is_set():
                return 0
            taken = min(self._capacity() - self._held, CLAIM_MAX)
            self._held += taken
            return taken

    def _capacity(self) -> int:
        """The threads plus the prefetch they can work off within the window at their mean handler time."""
        if self._mean_handler_s is None:
            prefetch = min(self._prefetch, self._concurrency)
        else:
            rate = self._concurrency / max(self._mean_handler_s, 1e-6)
            prefetch = min(self._prefetch, int(rate * self._window_s))
        return self._concurrency + prefetch

    def _give_free(self, count: int, handler_s: Optional[float] = None) -> None:
        with self._free_cond:
            self._held -= count
            if handler_s is not None:
                mean = self._mean_handler_s
                self._mean_handler_s = handler_s if mean is None else mean + (handler_s - mean) * 0.05
            self._free_cond.notify()

    def _handle_loop(self) -> None:
        assert self._leases is not None
        while True:
            job = self._jobs.get()
            if job is None:
                return
            started = time.monotonic()
            try:
                self._handle(job)
            except BaseException:  # a thread that died here would leave the job leased for ever
                log.exception("hourglass: settling job %s on queue %s failed (it comes back when its lease ends)",
                              job.id, self._queue)
            finally:
                self._leases.release(job.id)  # no more extensions: a job not settled comes back when its lease ends
                with self._free_cond:
                    self._handled += 1
                self._give_free(1, time.monotonic() - started)

    def _handle(self, job: ClaimedJob) -> None:
        """Runs the handler on ``job``, then acks it, or nacks it with whatever the handler raised."""
        assert self._acks is not None and self._leases is not None
        try:
            self._handler(job)
        except BaseException as e:  # the handler's failure is the job's, even SystemExit: nacked, never lost
            self._leases.release(job.id)
            if not isinstance(e, Exception):
                log.error("hourglass: the handler of job %s on queue %s raised %s; the job is nacked and the "
                          "worker goes on", job.id, self._queue, type(e).__name__, exc_info=e)
            self._nack(job, e)
            return
        self._leases.release(job.id)
        self._acks.add(job)

    def _nack(self, job: ClaimedJob, error: BaseException) -> None:
        with self._free_cond:
            self._failed += 1
        text = one_line(_describe(error))
        try:
            self._client.nack(self._queue, job.id, job.receipt, error=text)
        except Exception as e:
            log.warning("hourglass: nack of job %s on queue %s failed (it comes back when its lease ends): %s",
                        job.id, self._queue, _describe(e), exc_info=not isinstance(e, HourglassError))


def _describe(error: BaseException) -> str:
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _left(deadline: Optional[float]) -> Optional[float]:
    return None if deadline is None else max(0.0, deadline - time.monotonic())
