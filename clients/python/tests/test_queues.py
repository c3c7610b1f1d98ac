"""Queue settings, limits and lifecycle, and schedules, against a real server."""

import unittest

from hourglass import (
    UNSET,
    Backoff,
    InvalidField,
    JobOptions,
    Limits,
    NewJob,
    QueueNotEmpty,
    QueueNotFound,
    Rate,
    ScheduleNotFound,
)

from .support import SharedServerTest
from .test_jobs import new_queue


class QueuesTest(SharedServerTest):
    def test_put_queue_sets_defaults_limits_and_delivery(self) -> None:
        q = new_queue()
        defaults = JobOptions(max_attempts=9, backoff=Backoff.fixed(2000), visibility_ms=45_000, priority=3)
        queue = self.client.put_queue(
            q, partitions=2, defaults=defaults, delivery={"type": "pull"}, limits=Limits(Rate(50, 1000), 7)
        )
        self.assertEqual(queue.name, q)
        settings = (queue.partitions, queue.replica_acks, queue.compress_above, queue.held_back)
        self.assertEqual(settings, (2, None, None, 0))
        self.assertEqual(queue.defaults["maxAttempts"], 9)
        self.assertEqual(queue.defaults["backoff"], {"type": "fixed", "delayMs": 2000})
        self.assertEqual((queue.defaults["visibilityMs"], queue.defaults["priority"]), (45_000, 3))
        self.assertEqual(queue.limits, Limits(Rate(50, 1000), 7))
        self.assertEqual(queue.delivery, {"type": "pull"})
        self.assertEqual(self.client.enqueue(q, 1, id="d").id, "d")
        self.assertEqual(self.client.get_job(q, "d").max_attempts, 9)

        kept = self.client.put_queue(q, limits=UNSET, compress_above=0, replica_acks=0)
        self.assertEqual(kept.limits, Limits(Rate(50, 1000), 7))
        self.assertEqual((kept.compress_above, kept.replica_acks), (0, 0))
        removed = self.client.put_queue(q, limits=None, compress_above=None)
        self.assertIsNone(removed.limits)
        self.assertEqual((removed.compress_above, removed.replica_acks), (None, 0))
        listed = next(x for x in self.client.queues() if x.name == q)
        self.assertEqual((listed.partitions, listed.held_back, listed.limits), (None, None, None))
        self.assertEqual(self.client.put_queue(q, limits=Limits(concurrency=1)).limits, Limits(None, 1))

    def test_a_bad_setting_names_its_field(self) -> None:
        with self.assertRaises(InvalidField) as caught:
            self.client.put_queue(new_queue(), limits=Limits(Rate(0, 1000)))
        self.assertEqual(caught.exception.field, "limits.rate.max")

    def test_queues_pause_resume_and_delete(self) -> None:
        q = new_queue()
        self.client.enqueue(q, 1)
        self.assertIn(q, [x.name for x in self.client.queues()])
        self.assertTrue(self.client.pause_queue(q).paused)
        self.assertEqual(self.client.claim(q), [])
        self.assertFalse(self.client.resume_queue(q).paused)
        with self.assertRaises(QueueNotEmpty):
            self.client.delete_queue(q)
        self.assertEqual(self.client.delete_queue(q, force=True), 1)
        with self.assertRaises(QueueNotFound):
            self.client.get_queue(q)
        empty = new_queue()
        self.client.put_queue(empty)
        self.assertEqual(self.client.delete_queue(empty), 0)

    def test_schedules_put_get_list_pause_resume_delete(self) -> None:
        q = new_queue()
        made = self.client.put_schedule(
            q, "nightly", {"report": True}, cron="30 2 * * *", time_zone="Europe/Berlin", max_attempts=2, priority=5
        )
        self.assertEqual((made.id, made.cron, made.time_zone), ("nightly", "30 2 * * *", "Europe/Berlin"))
        self.assertFalse(made.paused)
        self.assertEqual(len(made.next_runs), 3)
        self.assertEqual((made.max_attempts, made.priority), (2, 5))
        self.assertEqual((made.start_at, made.end_at, made.backoff, made.visibility_ms, made.ttl_ms), (None,) * 5)
        every = self.client.put_schedule(q, "tick", 1, every=60_000)
        self.assertEqual(every.every, 60_000)
        occurrence = self.client.get_job(q, f"tick:{every.next_runs[0]}")
        self.assertEqual(occurrence.schedule, "tick")
        self.assertEqual(self.client.get_schedule(q, "nightly").payload, {"report": True})
        self.assertEqual(sorted(s.id for s in self.client.schedules(q)), ["nightly", "tick"])
        self.assertTrue(self.client.pause_schedule(q, "tick").paused)
        self.assertFalse(self.client.resume_schedule(q, "tick").paused)
        self.client.delete_schedule(q, "tick")
        with self.assertRaises(ScheduleNotFound):
            self.client.get_schedule(q, "tick")

    def test_a_schedule_returns_its_bounds_and_job_options(self) -> None:
        q = new_queue()
        start, end = 1_767_225_600_000, 1_798_761_600_000
        made = self.client.put_schedule(
            q, "bounded", 1, every=60_000, start_at=start, end_at=end, max_attempts=3,
            backoff=Backoff.schedule([5000, 60_000]), visibility_ms=40_000, ttl_ms=900_000, priority=4,
        )
        for schedule in (made, self.client.get_schedule(q, "bounded")):
            self.assertEqual((schedule.start_at, schedule.end_at), (start, end))
            self.assertEqual((schedule.max_attempts, schedule.backoff), (3, Backoff.schedule([5000, 60_000])))
            self.assertEqual((schedule.visibility_ms, schedule.ttl_ms, schedule.priority), (40_000, 900_000, 4))
            self.assertEqual(schedule.time_zone, "UTC")

    def test_a_bad_schedule_names_its_field(self) -> None:
        with self.assertRaises(InvalidField) as caught:
            self.client.put_schedule(new_queue(), "s", 1, cron="not cron")
        self.assertEqual(caught.exception.field, "cron")
        with self.assertRaises(InvalidField) as caught:
            self.client.put_schedule(new_queue(), "s", 1, every=10)
        self.assertEqual(caught.exception.field, "every")

    def test_batch_jobs_take_the_queue_defaults(self) -> None:
        q = new_queue()
        self.client.put_queue(q, defaults=JobOptions(priority=6))
        self.client.enqueue_batch(q, [NewJob(1, id="x")])
        self.assertEqual(self.client.get_job(q, "x").priority, 6)


if __name__ == "__main__":
    unittest.main()
