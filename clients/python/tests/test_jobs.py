"""Producers' calls against a real server: enqueue with every option, batch, get, cancel, reschedule, listings,
dead letters."""

import time
import unittest
import uuid

from hourglass import (
    Backoff,
    DuplicateId,
    Enqueued,
    InvalidField,
    JobInflight,
    JobNotFound,
    JobState,
    NewJob,
)

from .support import SharedServerTest


def new_queue() -> str:
    return "py-" + uuid.uuid4().hex[:12]


class JobsTest(SharedServerTest):
    def test_enqueue_sends_every_option_under_the_api_names(self) -> None:
        q = new_queue()
        done = self.client.enqueue(
            q,
            {"order": 42, "items": ["a", "b"]},
            id="order-42",
            delay_ms=60_000,
            max_attempts=7,
            backoff=Backoff.exponential(500, 10_000, jitter=0.1),
            visibility_ms=12_000,
            ttl_ms=3_600_000,
            priority=4,
        )
        self.assertEqual((done.id, done.queue, done.state), ("order-42", q, "delayed"))
        job = self.client.get_job(q, "order-42")
        self.assertEqual(job.payload, {"order": 42, "items": ["a", "b"]})
        self.assertEqual((job.state, job.max_attempts, job.priority, job.attempts), ("delayed", 7, 4, 0))
        self.assertEqual(job.run_at, done.run_at)
        self.assertEqual(job.raw["visibilityMs"], 12_000)
        self.assertEqual(job.raw["backoff"], {"type": "exponential", "baseMs": 500, "maxMs": 10_000, "jitter": 0.1})
        self.assertEqual(job.raw["expiresAt"], job.created_at + 3_600_000)

    def test_run_at_and_the_other_backoffs(self) -> None:
        q = new_queue()
        run_at = int(time.time() * 1000) + 120_000
        done = self.client.enqueue(q, "text", run_at=run_at, backoff=Backoff.fixed(5000))
        self.assertEqual(done.run_at, run_at)
        self.assertEqual(self.client.get_job(q, done.id).raw["backoff"], {"type": "fixed", "delayMs": 5000})
        other = self.client.enqueue(q, None, backoff=Backoff.schedule([1000, 2000]))
        self.assertEqual(other.state, "ready")
        job = self.client.get_job(q, other.id)
        self.assertIsNone(job.payload)
        self.assertEqual(job.raw["backoff"], {"type": "schedule", "delaysMs": [1000, 2000]})

    def test_batch_answers_each_job_in_order_and_one_bad_job_fails_alone(self) -> None:
        q = new_queue()
        results = self.client.enqueue_batch(
            q, [NewJob({"n": 1}, id="b1"), NewJob({"n": 2}, priority=10), NewJob({"n": 3}, delay_ms=5000)]
        )
        self.assertIsInstance(results[0], Enqueued)
        self.assertIsInstance(results[1], InvalidField)
        assert isinstance(results[1], InvalidField)
        self.assertEqual(results[1].field, "jobs[1].priority")
        assert isinstance(results[2], Enqueued)
        self.assertEqual(results[2].state, "delayed")
        self.assertEqual(self.client.get_queue(q).counters["enqueued"], 2)

    def test_batch_over_a_thousand_jobs_is_sent_in_requests_of_a_thousand(self) -> None:
        q = new_queue()
        results = self.client.enqueue_batch(q, [NewJob(i, delay_ms=60_000) for i in range(2500)])
        self.assertEqual(len(results), 2500)
        self.assertTrue(all(isinstance(r, Enqueued) for r in results))
        self.assertEqual(self.client.get_queue(q).delayed, 2500)

    def test_duplicate_id(self) -> None:
        q = new_queue()
        self.client.enqueue(q, 1, id="same")
        with self.assertRaises(DuplicateId) as caught:
            self.client.enqueue(q, 2, id="same")
        self.assertEqual((caught.exception.status, caught.exception.code), (409, "duplicate_id"))

    def test_cancel_and_reschedule(self) -> None:
        q = new_queue()
        self.client.enqueue(q, 1, id="c", delay_ms=60_000)
        moved = self.client.reschedule(q, "c", delay_ms=0)
        self.assertEqual(moved.state, "ready")
        run_at = int(time.time() * 1000) + 300_000
        self.assertEqual(self.client.reschedule(q, "c", run_at=run_at).run_at, run_at)
        self.client.cancel(q, "c")
        with self.assertRaises(JobNotFound):
            self.client.get_job(q, "c")
        with self.assertRaises(JobNotFound):
            self.client.cancel(q, "c")

    def test_cancel_of_a_leased_job_is_job_inflight(self) -> None:
        q = new_queue()
        self.client.enqueue(q, 1, id="held")
        self.assertEqual(len(self.client.claim(q, max=1)), 1)
        with self.assertRaises(JobInflight):
            self.client.cancel(q, "held")

    def test_jobs_by_state_pages_through_cursors(self) -> None:
        q = new_queue()
        self.client.enqueue_batch(q, [NewJob(i, id=f"j{i}", delay_ms=60_000 + i) for i in range(7)])
        first = self.client.jobs(q, "delayed", limit=3)
        self.assertEqual([j.id for j in first.items], ["j0", "j1", "j2"])
        self.assertIsNotNone(first.next)
        self.assertEqual([j.id for j in self.client.iter_jobs(q, "delayed", page_size=2)], [f"j{i}" for i in range(7)])
        self.assertEqual(self.client.jobs(q, "ready").items, [])

    def test_dead_letters_list_requeue_and_purge(self) -> None:
        q = new_queue()
        self.client.enqueue_batch(q, [NewJob(i, id=f"d{i}") for i in range(3)])
        for job in self.client.claim(q, max=3):
            self.client.nack(q, job.id, job.receipt, error="no", dead=True)
        page = self.client.dead_letters(q, limit=2)
        self.assertEqual(len(page.items), 2)
        self.assertEqual(page.items[0].last_error, "no")
        self.client.requeue_dead(q, "d0")
        self.assertEqual(self.client.get_job(q, "d0").state, "ready")
        with self.assertRaises(JobState):
            self.client.requeue_dead(q, "d0")
        self.assertEqual(self.client.requeue_all_dead(q), 2)
        for job in self.client.claim(q, max=3):
            self.client.nack(q, job.id, job.receipt, dead=True)
        self.assertEqual(self.client.purge_dead(q), 3)
        self.assertEqual(self.client.get_queue(q).dead, 0)


if __name__ == "__main__":
    unittest.main()
