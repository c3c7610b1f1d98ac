// The Worker: each job delivered once and acked in batches, its concurrency, nacks with the handler's error, lease
// extension of long jobs, and a graceful stop that loses nothing. Counts are checked on the server.

import assert from "node:assert/strict";
import { after, afterEach, test } from "node:test";
import type { Delivery, Queue, Worker } from "@hourglass/client";
import { client, eventually, queueName } from "./support/env.js";

const hourglass = client();
after(() => hourglass.close());

test("the worker delivers each job once, due ones by long polls, and acks them in batches", async () => {
  const queue = hourglass.queue<number>(queueName("worker-once"));
  const seen: string[] = [];
  let running = 0;
  let mostRunning = 0;
  const worker = track(queue.worker(
    async (job) => {
      running++;
      mostRunning = Math.max(mostRunning, running);
      seen.push(job.id);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
    },
    { concurrency: 4, onError: failOn },
  ));
  const now = Date.now();
  await queue.enqueueBatch(Array.from({ length: 200 }, (_, i) => ({ id: `ready-${i}`, payload: i })));
  await queue.enqueueBatch(
    Array.from({ length: 100 }, (_, i) => ({ id: `due-${i}`, payload: i, runAt: now + 200 + i * 5 })),
  );
  await eventually(() => seen.length >= 300, "300 jobs handled");
  await worker.stop();

  assert.equal(new Set(seen).size, 300, "each job once");
  assert.equal(seen.length, 300, "no job twice");
  assert.ok(mostRunning <= 4, `at most 4 handlers at once, saw ${mostRunning}`);
  assert.equal(worker.acked, 300);
  assert.ok(worker.ackBatches < 300, `acks went in batches: ${worker.ackBatches} requests for 300 acks`);
  const info = await queue.info();
  assert.equal(info.counters.delivered, 300);
  assert.equal(info.counters.acked, 300);
  assert.equal(info.ready + info.inflight + info.delayed + info.dead, 0);
});

test("a handler that throws nacks its job with the error as lastError, retried by the backoff, then dead", async () => {
  const queue = hourglass.queue<string>(queueName("worker-nack"));
  const attempts: [string, number, string | undefined][] = [];
  const worker = track(queue.worker(
    (job) => {
      attempts.push([job.id, job.attempt, job.lastError]);
      if (job.payload === "always" || job.attempt === 1) {
        throw new Error(`no luck on ${job.id}\n  at a stack line`);
      }
    },
    { onError: failOn },
  ));
  const backoff = { type: "fixed" as const, delayMs: 0 };
  await queue.enqueueBatch([
    { id: "flaky", payload: "once", maxAttempts: 3, backoff },
    { id: "broken", payload: "always", maxAttempts: 2, backoff },
  ]);
  await eventually(async () => (await queue.info()).counters.acked === 1 && (await queue.info()).dead === 1, "settled");
  await worker.stop();

  assert.deepEqual(attempts.filter(([id]) => id === "flaky"), [
    ["flaky", 1, undefined],
    ["flaky", 2, "Error: no luck on flaky at a stack line"],
  ]);
  const dead = await queue.get("broken");
  assert.equal(dead.state, "dead");
  assert.equal(dead.attempts, 2);
  assert.equal(dead.lastError, "Error: no luck on broken at a stack line");
  assert.equal(worker.counts.nacked, 3);
});

test("a job running longer than its lease is extended, never delivered again", async () => {
  const queue = hourglass.queue<string>(queueName("worker-lease"));
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const starts: Delivery<string>[] = [];
  const worker = track(queue.worker(
    async (job) => {
      starts.push(job);
      await released;
    },
    { visibilityMs: 3000, onError: failOn },
  ));
  const other: Delivery<string>[] = [];
  let rival: Worker<string> | undefined;
  try {
    await queue.enqueue({ id: "long", payload: "takes a while" });
    await eventually(() => starts.length === 1, "the job started");
    rival = track(queue.worker((job) => void other.push(job), { visibilityMs: 3000, onError: failOn }));
    await eventually(() => worker.extended >= 3, "the lease extended three times (over 1.5 leases of 3 s)");
  } finally {
    release();
    await Promise.all([worker.stop(), rival?.stop()]);
  }

  assert.equal(starts.length, 1);
  assert.deepEqual(other, [], "the other worker never got it");
  const info = await queue.info();
  assert.equal(info.counters.delivered, 1);
  assert.equal(info.counters.retried, 0);
  assert.equal(info.counters.acked, 1, "acked when stop resolved");
});

test("stop lets running and held jobs finish and acks them; the rest wait for the next worker, none lost", async () => {
  const queue = hourglass.queue<number>(queueName("worker-stop"));
  await queue.enqueueBatch(Array.from({ length: 300 }, (_, i) => ({ id: `s-${i}`, payload: i })));
  const first = new Set<string>();
  const worker = track(queue.worker(
    async (job) => {
      first.add(job.id);
      await new Promise((resolve) => setTimeout(resolve, 2));
    },
    { concurrency: 5, onError: failOn },
  ));
  await eventually(() => first.size >= 50, "50 jobs started");
  const stopping = worker.stop();
  assert.equal(worker.stop(), stopping, "stop twice is one stop");
  await stopping;
  const handledFirst = first.size;
  assert.equal(worker.acked, handledFirst, "every job the worker started was acked before stop resolved");
  assert.ok(handledFirst < 300, `stopped before the end (${handledFirst})`);
  await eventually(async () => (await queue.info()).inflight === 0, "nothing left leased");
  assert.equal((await queue.info()).counters.acked, handledFirst);

  const second = new Set<string>();
  const next = track(queue.worker((job) => void second.add(job.id), { onError: failOn }));
  await eventually(async () => (await queue.info()).counters.acked === 300, "all acked");
  await next.stop();
  assert.equal(second.size, 300 - handledFirst);
  assert.ok([...second].every((id) => !first.has(id)), "no job ran twice");
  await drained(queue);
});

async function drained(queue: Queue<number>): Promise<void> {
  const info = await queue.info();
  assert.equal(info.ready + info.inflight + info.delayed + info.dead, 0);
}

/** Every failure a worker reported; each test ends by checking there was none. */
const reported: unknown[] = [];
function failOn(error: unknown): void {
  reported.push(error);
}

/** Every worker a test starts, stopped after it even when it fails, so that a failure cannot hang the run. */
const started: Worker<never>[] = [];
function track<P>(worker: Worker<P>): Worker<P> {
  started.push(worker as Worker<never>);
  return worker;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((worker) => worker.stop()));
  assert.deepEqual(reported.splice(0), [], "failures the workers reported");
});
