// Consuming by hand: claim (and its long poll), ack, batch ack, nack, extend, and the dead letters; close() with a
// long poll in flight.

import assert from "node:assert/strict";
import { after, test } from "node:test";
import {
  ClientClosedError,
  JobNotFoundError,
  JobStateError,
  StaleReceiptError,
  type HourglassError,
} from "@hourglass/client";
import { client, eventually, queueName, serverUrl } from "./support/env.js";
import { connectionsTo } from "./support/server.js";

const hourglass = client();
after(() => hourglass.close());

test("claim leases due jobs with receipts, ack finishes one, and a second ack is refused", async () => {
  const queue = hourglass.queue<string>(queueName("consume-ack"));
  await queue.enqueueBatch([
    { id: "a", payload: "A", priority: 1 },
    { id: "b", payload: "B", priority: 9 },
  ]);
  const jobs = await queue.claim({ max: 10, visibilityMs: 20_000 });
  assert.deepEqual(
    jobs.map((job) => [job.id, job.payload, job.attempt, job.queue]),
    [
      ["b", "B", 1, queue.name],
      ["a", "A", 1, queue.name],
    ],
    "the higher priority first",
  );
  const [b] = jobs;
  assert.ok(b !== undefined && b.receipt.length > 0 && b.leaseUntil > b.runAt);
  await queue.ack(b.id, b.receipt);
  await assert.rejects(queue.get("b"), JobNotFoundError);
  await assert.rejects(queue.ack(b.id, b.receipt), JobNotFoundError);
  assert.equal((await queue.get("a")).state, "inflight");
});

test("a long poll waits for a job enqueued after it started, and an empty one answers []", async () => {
  const queue = hourglass.queue<number>(queueName("consume-poll"));
  assert.deepEqual(await queue.claim({ max: 5, waitMs: 50 }), []);
  const claim = queue.claim({ max: 5, waitMs: 20_000 });
  await queue.enqueue({ id: "late", payload: 7 });
  const jobs = await claim;
  assert.deepEqual(
    jobs.map((job) => job.id),
    ["late"],
  );
});

test("an aborted long poll rejects with the signal's reason", async () => {
  const queue = hourglass.queue(queueName("consume-abort"));
  const controller = new AbortController();
  const claim = queue.claim({ max: 1, waitMs: 20_000, signal: controller.signal });
  controller.abort(new Error("stopped by the test"));
  await assert.rejects(claim, /stopped by the test/);
});

test("close() lets a long poll in flight finish, then closes its connection, and refuses later calls", async () => {
  const port = Number(new URL(serverUrl()).port);
  const before = connectionsTo(port);
  const retries: HourglassError[] = [];
  const closing = client({ retry: { onRetry: (error) => retries.push(error) } });
  const feeder = client();
  const queue = closing.queue<number>(queueName("consume-close"));
  await queue.put({}); // opens the connection the claim then takes
  const claim = queue.claim({ max: 1, waitMs: 20_000 });
  await new Promise((resolve) => setImmediate(resolve)); // the claim is on its connection
  closing.close();
  await assert.rejects(queue.get("any"), (error: unknown) => {
    assert.ok(error instanceof ClientClosedError, `${error}`);
    assert.equal(error.code, "client_closed");
    assert.match(error.message, /GET \/v1\/queues\/consume-close-\w+\/jobs\/any: the client is closed/);
    return true;
  });
  await feeder.queue<number>(queue.name).enqueue({ id: "after-close", payload: 1 });
  feeder.close();
  assert.deepEqual(
    (await claim).map((job) => job.id),
    ["after-close"],
  );
  assert.equal(retries.length, 0, `the long poll was neither cut off nor sent again: ${retries.join("; ")}`);
  await eventually(() => connectionsTo(port) <= before, "both clients' connections closed once idle");
});

test("batch ack answers per ack; a stale receipt fails alone as a StaleReceiptError", async () => {
  const queue = hourglass.queue(queueName("consume-batch"));
  await queue.enqueueBatch([1, 2, 3].map((n) => ({ id: `j${n}`, payload: n })));
  const jobs = await queue.claim({ max: 3 });
  assert.equal(jobs.length, 3);
  const acks = jobs.map((job) => ({ id: job.id, receipt: job.receipt }));
  acks[1] = { id: acks[1]!.id, receipt: `${acks[1]!.receipt}x` };
  const results = await queue.ackBatch(acks);
  assert.deepEqual(
    results.map((result) => [result.id, result.error === undefined]),
    [
      ["j1", true],
      ["j2", false],
      ["j3", true],
    ],
  );
  assert.ok(results[1]?.error instanceof StaleReceiptError, `${results[1]?.error}`);
  assert.equal(results[1]?.error?.status, 409);
});

test("extend moves the lease; nack retries with the error, or kills the job", async () => {
  const queue = hourglass.queue(queueName("consume-nack"));
  await queue.enqueue({ id: "n", payload: {}, maxAttempts: 3, backoff: { type: "fixed", delayMs: 0 } });
  const [first] = await queue.claim({ max: 1, visibilityMs: 5_000 });
  assert.ok(first);
  const leaseUntil = await queue.extend(first.id, first.receipt, 60_000);
  assert.ok(leaseUntil > first.leaseUntil, `${leaseUntil} > ${first.leaseUntil}`);
  await assert.rejects(queue.extend(first.id, "not-the-receipt", 1000), StaleReceiptError);

  await queue.nack(first.id, first.receipt, { error: "partner said 503", delayMs: 0 });
  const [second] = await queue.claim({ max: 1, waitMs: 10_000 });
  assert.equal(second?.attempt, 2);
  assert.equal(second?.lastError, "partner said 503");

  await queue.nack(second!.id, second!.receipt, { error: "order 42 does not exist", dead: true });
  const job = await queue.get("n");
  assert.equal(job.state, "dead");
  assert.equal(job.lastError, "order 42 does not exist");
});

test("dead letters: list pages, requeue one, requeue all, purge", async () => {
  const queue = hourglass.queue<number>(queueName("consume-dead"));
  await queue.enqueueBatch([1, 2, 3, 4].map((n) => ({ id: `d${n}`, payload: n })));
  for (const job of await queue.claim({ max: 4 })) {
    await queue.nack(job.id, job.receipt, { error: `failed ${job.payload}`, dead: true });
  }
  const page = await queue.dead.list({ limit: 3 });
  assert.equal(page.jobs.length, 3);
  assert.ok(page.next !== null);
  const rest = await queue.dead.list({ cursor: page.next });
  assert.deepEqual(
    [...page.jobs, ...rest.jobs].map((job) => job.id).sort(),
    ["d1", "d2", "d3", "d4"],
  );
  assert.ok(page.jobs.every((job) => job.state === "dead" && job.lastError?.startsWith("failed")));

  await queue.dead.requeue("d1");
  assert.equal((await queue.get("d1")).state, "ready");
  await assert.rejects(queue.dead.requeue("d1"), JobStateError, "it is ready, not dead");
  assert.equal(await queue.dead.requeueAll(), 3);
  const again = await queue.claim({ max: 4 });
  await queue.nack(again[0]!.id, again[0]!.receipt, { dead: true });
  assert.equal(await queue.dead.purge(), 1);
  assert.deepEqual((await queue.dead.list()).jobs, []);
});
