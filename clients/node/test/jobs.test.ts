// Jobs: enqueue (one and batch, every option), get, cancel, reschedule, jobs by state, and the typed errors.

import assert from "node:assert/strict";
import { after, test } from "node:test";
import {
  DuplicateIdError,
  HourglassError,
  InvalidFieldError,
  InvalidQueueNameError,
  JobInflightError,
  JobNotFoundError,
  QueueNotFoundError,
  type JobSpec,
} from "@hourglass/client";
import { client, queueName } from "./support/env.js";

const hourglass = client();
after(() => hourglass.close());

test("enqueue sends every job option under the API's name, and get returns them", async () => {
  const queue = hourglass.queue<{ order: number }>(queueName("jobs-options"));
  const enqueued = await queue.enqueue({
    id: "order-42",
    payload: { order: 42 },
    delayMs: 60_000,
    maxAttempts: 7,
    backoff: { type: "schedule", delaysMs: [1000, 5000] },
    visibilityMs: 12_000,
    ttlMs: 3_600_000,
    priority: 6,
  });
  assert.equal(enqueued.id, "order-42");
  assert.equal(enqueued.queue, queue.name);
  assert.equal(enqueued.state, "delayed");

  const job = await queue.get("order-42");
  assert.deepEqual(job.payload, { order: 42 });
  assert.equal(job.state, "delayed");
  assert.equal(job.runAt, enqueued.runAt);
  assert.equal(job.maxAttempts, 7);
  assert.deepEqual(job.backoff, { type: "schedule", delaysMs: [1000, 5000] });
  assert.equal(job.visibilityMs, 12_000);
  assert.equal(job.expiresAt, job.createdAt + 3_600_000);
  assert.equal(job.priority, 6);
  assert.equal(job.attempts, 0);

  const runAt = Date.now() + 120_000;
  const other = await queue.enqueue({
    payload: { order: 43 },
    runAt,
    backoff: { type: "exponential", baseMs: 500, maxMs: 60_000, jitter: 0 },
  });
  assert.match(other.id, /^[A-Za-z0-9._:-]+$/, "an id the server generated");
  assert.equal(other.runAt, runAt);
  assert.deepEqual((await queue.get(other.id)).backoff, { type: "exponential", baseMs: 500, maxMs: 60_000, jitter: 0 });
  const fixed = await queue.enqueue({ payload: { order: 44 }, backoff: { type: "fixed", delayMs: 250 } });
  assert.equal(fixed.state, "ready");
});

test("batch enqueue answers per job, in order, and one bad job fails alone", async () => {
  const queue = hourglass.queue(queueName("jobs-batch"));
  const results = await queue.enqueueBatch([
    { id: "a", payload: 1 },
    { id: "b", payload: 2, priority: 12 },
    { id: "c", payload: 3, delayMs: 60_000 },
  ]);
  assert.equal(results.length, 3);
  assert.equal(results[0]?.error, undefined);
  assert.equal(results[0] && "id" in results[0] ? results[0].state : undefined, "ready");
  const bad = results[1]?.error;
  assert.ok(bad instanceof InvalidFieldError, `${bad}`);
  assert.equal(bad.field, "jobs[1].priority");
  assert.equal(bad.status, 400);
  assert.equal(bad.code, "invalid_field");
  assert.equal(results[2] && "id" in results[2] ? results[2].state : undefined, "delayed");
  await assert.rejects(queue.get("b"), JobNotFoundError);
});

test("bad input is an InvalidFieldError naming the field, and nothing is written", async () => {
  const queue = hourglass.queue(queueName("jobs-invalid"));
  const typo = { id: "typo", payload: {}, delay: 5000 } as unknown as JobSpec;
  await assert.rejects(queue.enqueue(typo), (error: unknown) => {
    assert.ok(error instanceof InvalidFieldError);
    assert.ok(error instanceof HourglassError);
    assert.equal(error.field, "delay");
    assert.match(error.message, /did you mean "delayMs"/);
    return true;
  });
  await assert.rejects(queue.enqueue({ payload: {}, delayMs: 60_000, ttlMs: 1000 }), fieldError("ttlMs"));
  await assert.rejects(queue.enqueue({ payload: {}, maxAttempts: 0 }), fieldError("maxAttempts"));
  await assert.rejects(queue.enqueue({ payload: {}, delayMs: 1, runAt: Date.now() }), InvalidFieldError);
  await assert.rejects(queue.get("typo"), QueueNotFoundError, "the refused enqueue created nothing");
  await assert.rejects(hourglass.queue("..").enqueue({ payload: 1 }), InvalidQueueNameError);
});

test("a second live job with the same id is a DuplicateIdError", async () => {
  const queue = hourglass.queue(queueName("jobs-duplicate"));
  await queue.enqueue({ id: "once", payload: 1, delayMs: 60_000 });
  await assert.rejects(queue.enqueue({ id: "once", payload: 2 }), (error: unknown) => {
    assert.ok(error instanceof DuplicateIdError);
    assert.equal(error.status, 409);
    return true;
  });
});

test("cancel removes a waiting job; leased is a JobInflightError, unknown a JobNotFoundError", async () => {
  const queue = hourglass.queue(queueName("jobs-cancel"));
  await queue.enqueue({ id: "later", payload: 1, delayMs: 60_000 });
  await queue.cancel("later");
  await assert.rejects(queue.get("later"), JobNotFoundError);
  await assert.rejects(queue.cancel("later"), JobNotFoundError);

  await queue.enqueue({ id: "now", payload: 2 });
  const [delivery] = await queue.claim({ max: 1 });
  assert.equal(delivery?.id, "now");
  await assert.rejects(queue.cancel("now"), JobInflightError);
  await assert.rejects(queue.reschedule("now", { delayMs: 1000 }), JobInflightError);
});

test("reschedule moves a job by delayMs or to runAt and answers the job", async () => {
  const queue = hourglass.queue(queueName("jobs-reschedule"));
  await queue.enqueue({ id: "r", payload: "x", delayMs: 60_000 });
  const runAt = Date.now() + 600_000;
  const moved = await queue.reschedule("r", { runAt });
  assert.equal(moved.runAt, runAt);
  assert.equal(moved.state, "delayed");
  const now = await queue.reschedule("r", { delayMs: 0 });
  assert.equal(now.state, "ready");
  assert.equal((await queue.get("r")).state, "ready");
  await assert.rejects(queue.reschedule("missing", { delayMs: 0 }), JobNotFoundError);
});

test("jobs by state pages through a state in due order, with a cursor", async () => {
  const queue = hourglass.queue<number>(queueName("jobs-state"));
  const base = Date.now() + 60_000;
  await queue.enqueueBatch(Array.from({ length: 5 }, (_, i) => ({ id: `d${i}`, payload: i, runAt: base + i * 1000 })));
  await queue.enqueue({ id: "r0", payload: 99 });
  const first = await queue.jobs("delayed", { limit: 3 });
  assert.deepEqual(
    first.jobs.map((job) => job.id),
    ["d0", "d1", "d2"],
  );
  assert.ok(first.next !== null);
  const second = await queue.jobs("delayed", { limit: 3, cursor: first.next });
  assert.deepEqual(
    second.jobs.map((job) => job.id),
    ["d3", "d4"],
  );
  assert.equal(second.next, null);
  const ready = await queue.jobs("ready");
  assert.deepEqual(
    ready.jobs.map((job) => [job.id, job.payload, job.state]),
    [["r0", 99, "ready"]],
  );
  await assert.rejects(queue.jobs("delayed", { limit: 0 }), fieldError("limit"));
});

function fieldError(field: string): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof InvalidFieldError, `${error}`);
    assert.equal(error.field, field, error.message);
    return true;
  };
}
