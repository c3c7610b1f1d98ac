"""The Worker against a real server: each job once, acks in batches, failures nacked, long jobs kept leased,
a graceful stop."""

import re
import threading
import time
import unittest
import urllib.request
from collections import Counter
from typing import Dict, List
from unittest import mock

from hourglass import ClaimedJob, Client, JobOptions, NewJob, Worker

from .support import ADMIN_TOKEN, DroppingProxy, SharedServerTest, await_condition, shared_server
from .test_jobs import new_queue


def request_counts() -> Dict[str, int]:
    """The server's own count of POSTs answered, by route (its /metrics)."""
    server = shared_server()
    request = urllib.request.Request(server.url + "/metrics", headers={"Authorization": "Bearer " + ADMIN_TOKEN})
    with urllib.request.urlopen(request, timeout=30) as answer:
        text = answer.read().decode()
    counts: Dict[str, int] = Counter()
    pattern = r'http_server_requests_seconds_count\{method="POST",route="([^"]+)",status="2\d\d"\} (\d+)'
    for route, count in re.findall(pattern, text):
        counts[route] += int(float(count))
    return counts


class WorkerTest(SharedServerTest):
    def test_each_job_is_handled_once_and_acked_in_batches(self) -> None:
        q = new_queue()
        seen: List[str] = []
        lock = threading.Lock()

        def handle(job: ClaimedJob) -> None:
            with lock:
                seen.append(job.payload["n"])

        before = request_counts()
        self.client.enqueue_batch(q, [NewJob({"n": i}, delay_ms=i % 500) for i in range(1000)])
        with Worker(self.client, q, handle, concurrency=4) as worker:
            await_condition(lambda: self.client.get_queue(q).counters["acked"] == 1000, "every job acked")
        after = request_counts()
        self.assertEqual(sorted(seen), list(range(1000)))
        queue = self.client.get_queue(q)
        self.assertEqual((queue.ready, queue.delayed, queue.inflight, queue.counters["delivered"]), (0, 0, 0, 1000))
        batch_acks = after["/v1/queues/{queue}/ack"] - before["/v1/queues/{queue}/ack"]
        self.assertEqual(after["/v1/queues/{queue}/jobs/{id}/ack"], before["/v1/queues/{queue}/jobs/{id}/ack"])
        self.assertEqual(worker.stats().ack_requests, batch_acks)
        self.assertLess(batch_acks, 1000)
        self.assertEqual((worker.stats().acked, worker.stats().handled), (1000, 1000))

    def test_a_handler_that_raises_nacks_the_job_with_its_error(self) -> None:
        q = new_queue()
        self.client.enqueue(q, 1, id="bad", max_attempts=2)
        tries: List[int] = []

        def handle(job: ClaimedJob) -> None:
            tries.append(job.attempt)
            raise ValueError(f"cannot handle attempt {job.attempt}\nsecond line")

        self.client.put_queue(q)  # the job's backoff is the queue's: exponential from 1 s
        with Worker(self.client, q, handle, concurrency=1):
            await_condition(lambda: self.client.get_queue(q).dead == 1, "the job dead after its two attempts")
        self.assertEqual(tries, [1, 2])
        dead = self.client.get_job(q, "bad")
        self.assertEqual(dead.last_error, "ValueError: cannot handle attempt 2 second line")

    def test_a_job_longer_than_its_lease_is_extended_not_delivered_again(self) -> None:
        q = new_queue()
        self.client.enqueue(q, 1, id="long")
        attempts: List[int] = []
        finish = threading.Event()

        def handle(job: ClaimedJob) -> None:
            attempts.append(job.attempt)
            finish.wait(60)  # a job of several leases: it ends when the test has seen the lease extended

        with Worker(self.client, q, handle, concurrency=2, visibility_ms=1000, wait_ms=200) as worker:
            await_condition(lambda: worker.stats().extensions >= 4, "four extensions, two leases' time")
            self.assertEqual(self.client.get_job(q, "long").state, "inflight")
            finish.set()
            await_condition(lambda: self.client.get_queue(q).counters["acked"] == 1, "the job acked")
        self.assertEqual(attempts, [1])
        counters = self.client.get_queue(q).counters
        self.assertEqual((counters["delivered"], counters["retried"]), (1, 0))

    def test_leases_are_timed_by_the_local_clock_whatever_its_skew_from_the_servers(self) -> None:
        q = new_queue()
        self.client.put_queue(q, defaults=JobOptions(visibility_ms=1000))  # the queue's own lease: 1 s
        self.client.enqueue(q, 1, id="skewed")
        attempts: List[int] = []
        running, finish = threading.Event(), threading.Event()

        def handle(job: ClaimedJob) -> None:
            attempts.append(job.attempt)
            running.set()
            finish.wait(60)

        wall = time.time
        with mock.patch.object(time, "time", lambda: wall() - 600):  # this machine's clock 10 minutes behind
            with Worker(self.client, q, handle, concurrency=1, prefetch=0) as worker:
                self.assertTrue(running.wait(60))
                # The worker's lease (30 s, asked for at the claim) holds past the queue's 1 s: nobody else gets it.
                self.assertEqual(self.client.claim(q, wait_ms=3000), [])
                finish.set()
                await_condition(lambda: self.client.get_queue(q).counters["acked"] == 1, "the job acked")
        self.assertEqual((attempts, worker.stats().handled), ([1], 1))

    def test_a_handler_that_raises_system_exit_or_keyboard_interrupt_nacks_its_job_and_the_worker_goes_on(
        self,
    ) -> None:
        q = new_queue()
        self.client.enqueue(q, 1, id="quits")
        seen: List[ClaimedJob] = []

        def handle(job: ClaimedJob) -> None:
            seen.append(job)
            if job.attempt == 1:
                raise SystemExit("the handler quit")
            if job.attempt == 2:
                raise KeyboardInterrupt()

        with self.assertLogs("hourglass.worker", "ERROR") as logs:
            with Worker(self.client, q, handle, concurrency=1) as worker:
                await_condition(lambda: self.client.get_queue(q).counters["acked"] == 1, "acked at the third try")
        self.assertEqual([job.attempt for job in seen], [1, 2, 3])
        self.assertEqual([job.last_error for job in seen[1:]], ["SystemExit: the handler quit", "KeyboardInterrupt"])
        self.assertEqual((worker.stats().handled, worker.stats().failed), (3, 2))
        self.assertEqual(len(logs.records), 2)
        self.assertIn("raised SystemExit", logs.records[0].getMessage())

    def test_a_claim_answered_with_no_json_is_logged_and_the_worker_claims_again(self) -> None:
        q = new_queue()
        self.client.enqueue_batch(q, [NewJob(i, id=f"g{i}") for i in range(3)])
        html = b"<html>not the API</html>"
        answer = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s" % (len(html), html)
        proxy = DroppingProxy(shared_server().port, drop=2, answer=answer)  # the first two claims get HTML
        self.addCleanup(proxy.close)
        client = Client(proxy.url, token=ADMIN_TOKEN)
        self.addCleanup(client.close)
        handled: List[str] = []
        # One poller, one job at a time: a slot the failed claims kept, or a poller they killed, would stop it.
        with self.assertLogs("hourglass.worker", "WARNING") as logs:
            with Worker(client, q, lambda job: handled.append(job.id), concurrency=1, prefetch=0, pollers=1):
                await_condition(lambda: self.client.get_queue(q).counters["acked"] == 3, "every job acked")
        self.assertEqual(sorted(handled), ["g0", "g1", "g2"])
        failures = [r.getMessage() for r in logs.records if "claim on queue" in r.getMessage()]
        self.assertEqual(len(failures), 2, failures)
        self.assertIn("TypeError", failures[0])

    def test_stop_finishes_claimed_jobs_acks_them_and_leaves_the_rest_ready(self) -> None:
        q = new_queue()
        self.client.enqueue_batch(q, [NewJob(i, id=f"s{i}") for i in range(300)])
        handled: List[str] = []
        lock = threading.Lock()
        release = threading.Event()

        def handle(job: ClaimedJob) -> None:
            release.wait(60)
            with lock:
                handled.append(job.id)

        # Before a job ends the worker holds its threads' worth and as many prefetched: 8, 4 of them running.
        worker = Worker(self.client, q, handle, concurrency=4, prefetch=4).start()
        await_condition(lambda: self.client.get_queue(q).inflight == 8, "the worker holds 8 jobs")
        stopping = threading.Thread(target=worker.stop)
        stopping.start()
        await_condition(lambda: worker.stopping, "stop() begun: no more claims")
        release.set()
        stopping.join()
        queue = self.client.get_queue(q)
        self.assertEqual(len(handled), 8)
        self.assertEqual((queue.inflight, queue.ready, queue.counters["acked"]), (0, 292, 8))
        self.assertEqual(queue.counters["delivered"], 8)

        rest: List[str] = []
        with Worker(self.client, q, lambda job: rest.append(job.id)):
            await_condition(lambda: self.client.get_queue(q).counters["acked"] == 300, "the rest acked")
        self.assertEqual(sorted(handled + rest), sorted(f"s{i}" for i in range(300)))

    def test_stop_of_an_idle_worker_gives_up_its_long_poll(self) -> None:
        q = new_queue()
        worker = Worker(self.client, q, lambda job: None, wait_ms=30_000).start()
        await_condition(lambda: shared_waiting() >= 1, "the worker's long poll waiting")
        self.assertTrue(worker.stop())
        self.client.enqueue(q, 1, id="after")
        self.assertEqual([j.attempt for j in self.client.claim(q, wait_ms=5000)], [1])


def shared_waiting() -> int:
    server = shared_server()
    request = urllib.request.Request(server.url + "/metrics", headers={"Authorization": "Bearer " + ADMIN_TOKEN})
    with urllib.request.urlopen(request, timeout=30) as answer:
        match = re.search(r"^hourglass_claims_waiting (\S+)$", answer.read().decode(), re.M)
    return int(float(match.group(1))) if match else 0


if __name__ == "__main__":
    unittest.main()
