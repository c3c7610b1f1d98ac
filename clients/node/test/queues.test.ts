// Queues: settings and limits (put, info), pause and resume, the list, and delete with and without force.

import assert from "node:assert/strict";
import { after, test } from "node:test";
import { InvalidFieldError, PartitionsFixedError, QueueNotEmptyError, QueueNotFoundError } from "@hourglass/client";
import { client, queueName } from "./support/env.js";

const hourglass = client();
after(() => hourglass.close());

test("put creates a queue with settings, info returns them, and a later put changes only what it gives", async () => {
  const queue = hourglass.queue(queueName("queues-settings"));
  await assert.rejects(queue.info(), QueueNotFoundError);
  const created = await queue.put({
    partitions: 2,
    defaults: {
      maxAttempts: 9,
      visibilityMs: 45_000,
      ttlMs: 600_000,
      priority: 3,
      backoff: { type: "fixed", delayMs: 10 },
    },
    limits: { rate: { max: 100, periodMs: 1000 }, concurrency: 10 },
    compressAbove: 0,
  });
  assert.equal(created.name, queue.name);
  assert.equal(created.partitions, 2);
  assert.deepEqual(created.defaults, {
    maxAttempts: 9,
    visibilityMs: 45_000,
    ttlMs: 600_000,
    priority: 3,
    backoff: { type: "fixed", delayMs: 10 },
  });
  assert.deepEqual(created.limits, { rate: { max: 100, periodMs: 1000 }, concurrency: 10 });
  assert.equal(created.compressAbove, 0);
  assert.deepEqual(created.delivery, { type: "pull" });

  const limited = await queue.setLimits({ concurrency: 2 });
  assert.deepEqual(limited.limits, { rate: null, concurrency: 2 });
  assert.equal(limited.defaults.maxAttempts, 9, "kept");
  assert.equal((await queue.setLimits(null)).limits, null);

  await queue.enqueue({ payload: 1 });
  const info = await queue.info();
  assert.equal(info.ready, 1);
  assert.equal(info.counters.enqueued, 1);
  assert.equal(info.heldBack, 0);
  assert.equal((await hourglass.queues()).find((q) => q.name === queue.name)?.ready, 1);

  await assert.rejects(queue.put({ partitions: 3 }), PartitionsFixedError);
  await assert.rejects(queue.setLimits({ rate: { max: 0, periodMs: 1000 } }), (error: unknown) => {
    assert.ok(error instanceof InvalidFieldError);
    assert.equal(error.field, "limits.rate.max");
    return true;
  });
});

test("a paused queue takes enqueues but gives no jobs until resumed", async () => {
  const queue = hourglass.queue(queueName("queues-pause"));
  await queue.enqueue({ id: "p", payload: 1 });
  assert.equal((await queue.pause()).paused, true);
  assert.deepEqual(await queue.claim({ max: 1 }), []);
  assert.equal((await queue.resume()).paused, false);
  assert.deepEqual(
    (await queue.claim({ max: 1 })).map((job) => job.id),
    ["p"],
  );
});

test("delete refuses a queue with jobs (QueueNotEmptyError); force removes it with them", async () => {
  const queue = hourglass.queue(queueName("queues-delete"));
  await queue.enqueueBatch([{ payload: 1 }, { payload: 2, delayMs: 60_000 }]);
  await assert.rejects(queue.delete(), QueueNotEmptyError);
  assert.equal(await queue.delete({ force: true }), 2);
  await assert.rejects(queue.info(), QueueNotFoundError);

  const empty = hourglass.queue(queueName("queues-empty"));
  await empty.put({});
  assert.equal(await empty.delete(), 0);
  await assert.rejects(empty.info(), QueueNotFoundError);
});
