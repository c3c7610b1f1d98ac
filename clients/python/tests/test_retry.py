"""Retries against real faults: a server stopped and started again, a Redis gone (503), a connection lost after
the request was sent."""

import threading
import unittest
from typing import Any, List, Tuple

from hourglass import ConnectionFailed, Client, HourglassError, RedisUnavailable, Retry

from .support import DroppingProxy, RedisProcess, ServerProcess, await_condition

PATIENT = Retry(attempts=200, base_delay=0.05, max_delay=0.5)


class Call(threading.Thread):
    """Runs one client call in its own thread and keeps its result or error."""

    def __init__(self, call: Any) -> None:
        super().__init__(daemon=True)
        self._call = call
        self.result: Any = None
        self.error: Any = None
        self.start()

    def run(self) -> None:
        try:
            self.result = self._call()
        except HourglassError as e:
            self.error = e


class RetryTest(unittest.TestCase):
    def patient_client(self, url: str) -> Tuple[Client, List[HourglassError]]:
        """A client that retries long enough for a restart, and the failures it retried."""
        failures: List[HourglassError] = []
        client = Client(url, retry=PATIENT, on_retry=lambda e, n: failures.append(e))
        self.addCleanup(client.close)
        return client, failures

    def test_a_call_outlasts_a_server_restart(self) -> None:
        server = ServerProcess().start()
        self.addCleanup(server.close)
        client, failures = self.patient_client(server.url)
        client.enqueue("restart", 1, id="before")
        server.stop()
        call = Call(lambda: client.get_job("restart", "before"))
        await_condition(lambda: len(failures) >= 2, "the call failing against the stopped server")
        server.start()
        call.join()
        self.assertIsNone(call.error)
        self.assertEqual(call.result.id, "before")
        self.assertTrue(all(isinstance(e, ConnectionFailed) for e in failures))

    def test_a_503_is_retried_for_safe_calls_only(self) -> None:
        redis = RedisProcess().start()
        self.addCleanup(redis.stop)
        server = ServerProcess(redis=redis.uri).start()
        self.addCleanup(server.close)
        client, failures = self.patient_client(server.url)
        client.enqueue("r503", 1, id="first")
        redis.stop()

        with self.assertRaises(RedisUnavailable) as unsafe:
            client.enqueue("r503", 2)  # no id: a repeat could make a second job, so not retried
        self.assertEqual((unsafe.exception.status, failures), (503, []))

        call = Call(lambda: client.enqueue("r503", 3, id="second"))
        await_condition(lambda: len(failures) >= 2, "the enqueue answered 503 and retried")
        redis.start()
        call.join()
        self.assertIsNone(call.error)
        self.assertEqual(call.result.id, "second")
        self.assertIsInstance(failures[0], RedisUnavailable)
        self.assertEqual(client.get_job("r503", "second").payload, 3)

    def test_a_connection_lost_after_sending_is_retried_for_safe_calls_only(self) -> None:
        server = ServerProcess().start()
        self.addCleanup(server.close)
        with Client(server.url) as direct:
            direct.enqueue("lost", 1, id="there")
        proxy = DroppingProxy(server.port, drop=1)
        self.addCleanup(proxy.close)
        client = Client(proxy.url, retry=Retry(3, 0.01, 0.05))
        self.addCleanup(client.close)
        self.assertEqual(client.get_job("lost", "there").id, "there")
        self.assertEqual(len(proxy.dropped), 1)

        unsafe_proxy = DroppingProxy(server.port, drop=1)
        self.addCleanup(unsafe_proxy.close)
        unsafe = Client(unsafe_proxy.url, retry=Retry(3, 0.01, 0.05))
        self.addCleanup(unsafe.close)
        with self.assertRaises(ConnectionFailed) as caught:
            unsafe.enqueue("lost", 2)
        self.assertTrue(caught.exception.sent)
        self.assertEqual(unsafe.get_queue("lost").counters["enqueued"], 1)


if __name__ == "__main__":
    unittest.main()
