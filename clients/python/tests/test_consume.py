"""Consumers' calls against a real server: claim, ack, batch ack, nack, extend."""

import time
import unittest

from hourglass import InvalidField, JobNotFound, NewJob, StaleReceipt

from .support import SharedServerTest
from .test_jobs import new_queue


class ConsumeTest(SharedServerTest):
    def test_claim_returns_the_job_with_its_lease_and_ack_settles_it(self) -> None:
        q = new_queue()
        self.client.enqueue(q, {"x": 1}, id="a", priority=2)
        before = int(time.time() * 1000)
        [job] = self.client.claim(q, max=10, visibility_ms=5000)
        self.assertEqual((job.id, job.queue, job.payload, job.attempt, job.priority), ("a", q, {"x": 1}, 1, 2))
        self.assertGreaterEqual(job.lease_until, before + 5000)
        self.client.ack(q, job.id, job.receipt)
        with self.assertRaises(JobNotFound):
            self.client.get_job(q, "a")
        self.assertEqual(self.client.get_queue(q).counters["acked"], 1)

    def test_long_poll_answers_when_a_job_comes(self) -> None:
        q = new_queue()
        self.client.enqueue(q, 1, id="soon", delay_ms=300)
        jobs = self.client.claim(q, wait_ms=30_000)
        self.assertEqual([j.id for j in jobs], ["soon"])

    def test_a_claim_that_finds_nothing_in_time_answers_no_jobs(self) -> None:
        self.assertEqual(self.client.claim(new_queue(), wait_ms=100), [])

    def test_batch_ack_answers_each_ack_and_a_stale_receipt_fails_alone(self) -> None:
        q = new_queue()
        self.client.enqueue_batch(q, [NewJob(i, id=f"b{i}") for i in range(3)])
        jobs = self.client.claim(q, max=3)
        results = self.client.ack_batch(q, [jobs[0], (jobs[1].id, "not-a-receipt"), (jobs[2].id, jobs[2].receipt)])
        self.assertEqual([r.id for r in results], ["b0", "b1", "b2"])
        self.assertEqual([r.acked for r in results], [True, False, True])
        self.assertIsInstance(results[1].error, StaleReceipt)
        self.assertEqual(self.client.get_queue(q).inflight, 1)

    def test_nack_retries_after_the_delay_with_the_error(self) -> None:
        q = new_queue()
        self.client.enqueue(q, 1, id="n", max_attempts=3)
        [job] = self.client.claim(q)
        self.client.nack(q, job.id, job.receipt, error="boom\n  at line 2", delay_ms=60_000)
        again = self.client.get_job(q, "n")
        self.assertEqual((again.state, again.attempts, again.last_error), ("delayed", 1, "boom at line 2"))
        self.client.reschedule(q, "n", delay_ms=0)
        [second] = self.client.claim(q)
        self.assertEqual((second.attempt, second.last_error), (2, "boom at line 2"))

    def test_extend_moves_the_lease_and_a_stale_receipt_is_refused(self) -> None:
        q = new_queue()
        self.client.enqueue(q, 1, id="e")
        [job] = self.client.claim(q, visibility_ms=2000)
        lease_until = self.client.extend(q, job.id, job.receipt, 60_000)
        self.assertGreater(lease_until, job.lease_until + 50_000)
        self.assertEqual(self.client.get_job(q, "e").raw["leaseUntil"], lease_until)
        with self.assertRaises(StaleReceipt):
            self.client.extend(q, job.id, "not-a-receipt", 60_000)

    def test_claim_options_are_checked_by_the_server(self) -> None:
        with self.assertRaises(InvalidField) as caught:
            self.client.claim(new_queue(), max=101)
        self.assertEqual(caught.exception.field, "max")


if __name__ == "__main__":
    unittest.main()
