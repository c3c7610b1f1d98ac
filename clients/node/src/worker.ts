// A worker: one long-poll claim loop feeding up to `concurrency` handlers, acks sent in batches, leases of held jobs
// extended, and a graceful stop.
//
// The loop claims as many jobs as there are free handlers plus a prefetch that follows the handlers' speed: as many
// jobs as they finished in the last quarter of the lease (at most 1 s), up to `prefetch`. Quick jobs then travel up
// to a hundred to a claim, and slow ones are not hoarded.

import { AckBatcher } from "./ack-batcher.js";
import { LeaseKeeper } from "./lease-keeper.js";
import { sleep } from "./transport.js";
import type { Queue } from "./queue.js";
import type { Delivery } from "./types.js";

/** Runs one job: resolving acks it, throwing or rejecting nacks it (retried by its backoff) with the error. */
export type Handler<P> = (job: Delivery<P>) => unknown;

export interface WorkerOptions {
  /** Handlers running at once; default 10. */
  concurrency?: number;
  /**
   * Most jobs held beyond the running ones, waiting for a handler; default 1000. The worker holds at most as many as
   * its handlers finished in the last quarter of the lease (at most 1 s); 0: it claims only for free handlers.
   */
  prefetch?: number;
  /**
   * Claims in flight at most (each a long poll when nothing is due); default 2, so that under load one is at the
   * server while the other's answer travels. Each claims only what room the handlers and prefetch leave.
   */
  pollers?: number;
  /** How long one claim waits for a job (a long poll), 1..30000; default 10000. */
  waitMs?: number;
  /** The lease of each claim and extension; default 30000. A job held longer is extended before it lapses. */
  visibilityMs?: number;
  /** Called with each failure the worker goes on after: a claim, ack, nack or extend that failed. Default: logs it. */
  onError?: (error: unknown, job?: Delivery<unknown>) => void;
}

const MAX_CLAIM = 100;
const LAST_ERROR_MAX = 1000;

export class Worker<P = unknown> {
  private readonly concurrency: number;
  private readonly prefetch: number;
  private readonly waitMs: number;
  private readonly visibilityMs: number;
  private readonly onError: (error: unknown, job?: Delivery<unknown>) => void;
  private readonly acks: AckBatcher;
  private readonly leases: LeaseKeeper;
  private readonly finishes: FinishRate;
  private readonly claims = new AbortController();
  private readonly waiting: Delivery<P>[] = [];
  private readonly nacks = new Set<Promise<void>>();
  private readonly loops: Promise<unknown>;
  private running = 0;
  /** Jobs asked for by claims in flight. */
  private reserved = 0;
  private stopping: Promise<void> | undefined;
  private wakers: (() => void)[] = [];
  private idle: (() => void) | undefined;
  /** Jobs claimed, handled (acked or nacked), and nacked. */
  readonly counts = { claimed: 0, handled: 0, nacked: 0 };

  constructor(
    private readonly queue: Queue<P>,
    private readonly handler: Handler<P>,
    options: WorkerOptions = {},
  ) {
    this.concurrency = integer("concurrency", options.concurrency ?? 10, 1, 10_000);
    this.prefetch = integer("prefetch", options.prefetch ?? 1000, 0, 10_000);
    this.waitMs = integer("waitMs", options.waitMs ?? 10_000, 1, 30_000);
    this.visibilityMs = integer("visibilityMs", options.visibilityMs ?? 30_000, 100, 2 ** 32 - 1);
    this.onError = options.onError ?? ((error) => console.error(`hourglass worker on queue ${queue.name}:`, error));
    this.acks = new AckBatcher(queue, (error) => this.onError(error));
    this.leases = new LeaseKeeper(queue, this.visibilityMs, this.onError);
    this.finishes = new FinishRate(Math.min(1000, this.visibilityMs / 4));
    const pollers = integer("pollers", options.pollers ?? 2, 1, 16);
    this.loops = Promise.all(Array.from({ length: pollers }, () => this.claimLoop()));
  }

  /** Acks the server confirmed so far. */
  get acked(): number {
    return this.acks.acked;
  }

  /** Batch ack requests sent so far. */
  get ackBatches(): number {
    return this.acks.batches;
  }

  /** Lease extensions the server granted so far. */
  get extended(): number {
    return this.leases.extended;
  }

  /**
   * Stops: claims no more (a claim waiting is given up, and the server hands back what it leased for it), lets the
   * running handlers and the jobs already held finish, and sends their acks and nacks. Resolves when all is done.
   */
  stop(): Promise<void> {
    this.stopping ??= this.drain();
    return this.stopping;
  }

  private async drain(): Promise<void> {
    this.claims.abort();
    this.wakeAll();
    await this.loops;
    if (this.running > 0 || this.waiting.length > 0) {
      await new Promise<void>((resolve) => (this.idle = resolve));
    }
    await this.acks.flush();
    await Promise.all(this.nacks);
    this.leases.stop();
  }

  private async claimLoop(): Promise<void> {
    let failures = 0;
    while (!this.claims.signal.aborted) {
      const room = this.concurrency + Math.min(this.prefetch, this.finishes.count()) - this.held() - this.reserved;
      if (room <= 0) {
        await new Promise<void>((resolve) => this.wakers.push(resolve));
        continue;
      }
      const max = Math.min(MAX_CLAIM, room);
      const sentAt = Date.now();
      let jobs: Delivery<P>[];
      this.reserved += max;
      try {
        jobs = await this.queue.claim({
          max,
          waitMs: this.waitMs,
          visibilityMs: this.visibilityMs,
          signal: this.claims.signal,
        });
        failures = 0;
      } catch (error) {
        if (this.claims.signal.aborted) {
          break;
        }
        this.onError(error);
        failures++;
        await sleep(Math.min(5000, 100 * 2 ** failures), this.claims.signal);
        continue;
      } finally {
        this.reserved -= max;
      }
      this.counts.claimed += jobs.length;
      for (const job of jobs) {
        this.leases.hold(job, sentAt);
        this.waiting.push(job);
      }
      this.dispatch();
      await nextTurn(); // lets handlers that finish at once do so before the next claim is sized
    }
  }

  private wakeAll(): void {
    const wakers = this.wakers;
    this.wakers = [];
    wakers.forEach((wake) => wake());
  }

  private held(): number {
    return this.running + this.waiting.length;
  }

  private dispatch(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      void this.run(this.waiting.shift() as Delivery<P>);
    }
  }

  private async run(job: Delivery<P>): Promise<void> {
    this.running++;
    try {
      await this.handler(job);
      this.leases.release(job);
      this.acks.add({ id: job.id, receipt: job.receipt });
    } catch (error) {
      this.leases.release(job);
      this.nack(job, error);
    }
    this.running--;
    this.counts.handled++;
    this.finishes.add();
    this.dispatch();
    this.wakeAll();
    if (this.idle !== undefined && this.held() === 0) {
      this.idle();
    }
  }

  private nack(job: Delivery<P>, cause: unknown): void {
    this.counts.nacked++;
    const sent = this.queue
      .nack(job.id, job.receipt, { error: oneLine(cause) })
      .catch((error: unknown) => this.onError(error, job));
    this.nacks.add(sent);
    void sent.finally(() => this.nacks.delete(sent));
  }
}

/** How many handlers finished within the last `windowMs`, counted in ten buckets. */
class FinishRate {
  private readonly buckets = new Array<number>(10).fill(0);
  private readonly bucketMs: number;
  private current = 0;

  constructor(windowMs: number) {
    this.bucketMs = Math.max(1, windowMs / 10);
  }

  add(): void {
    this.roll();
    this.buckets[this.current % 10]! += 1;
  }

  count(): number {
    this.roll();
    return this.buckets.reduce((sum, n) => sum + n, 0);
  }

  private roll(): void {
    const now = Math.floor(Date.now() / this.bucketMs);
    for (let gap = Math.min(10, now - this.current); gap > 0; gap--) {
      this.buckets[(now - gap + 1) % 10] = 0;
    }
    this.current = Math.max(this.current, now);
  }
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The error as a job's lastError: one line of at most 1,000 characters. */
function oneLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.replace(/\s*[\r\n]+\s*/g, " ").slice(0, LAST_ERROR_MAX);
}

function integer(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name}: must be an integer from ${min} to ${max}, was ${value}`);
  }
  return value;
}
