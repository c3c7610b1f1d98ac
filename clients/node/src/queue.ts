// One queue of the server: its jobs (enqueue, get, cancel, reschedule, listings), the consumer's calls (claim, ack,
// nack, extend, batch ack), its settings and lifecycle, and the handles of its dead letters and schedules.

import { errorFromResult, HourglassError } from "./errors.js";
import { query, type Transport } from "./transport.js";
import { DeadLetters } from "./dead-letters.js";
import { Schedules } from "./schedules.js";
import { Worker, type Handler, type WorkerOptions } from "./worker.js";
import type {
  Ack,
  ClaimOptions,
  Delivery,
  Enqueued,
  Job,
  JobSpec,
  JobState,
  NackOptions,
  Page,
  PageOptions,
  QueueInfo,
  QueueLimits,
  QueueSettings,
} from "./types.js";

/** One job's result in a batch enqueue: the enqueued job, or the error that job alone got. */
export type EnqueueResult = (Enqueued & { error?: undefined }) | { error: HourglassError };

/** One ack's result in a batch ack. */
export type AckResult =
  | { id: string | null; acked: true; error?: undefined }
  | { id: string | null; error: HourglassError };

/** A new due time: in `delayMs`, or at `runAt` (epoch ms). */
export type When = { delayMs: number; runAt?: undefined } | { runAt: number; delayMs?: undefined };

export class Queue<P = unknown> {
  /** Dead letters: list, requeue, purge. */
  readonly dead: DeadLetters<P>;
  /** Recurring jobs: put, get, list, pause, resume, delete. */
  readonly schedules: Schedules<P>;
  private readonly path: string;

  constructor(
    private readonly transport: Transport,
    readonly name: string,
  ) {
    this.path = `/v1/queues/${encodeURIComponent(name)}`;
    this.dead = new DeadLetters(transport, this.path);
    this.schedules = new Schedules(transport, this.path);
  }

  /** Enqueues one job. DuplicateIdError when a live job has its id. */
  enqueue(job: JobSpec<P>): Promise<Enqueued> {
    // with an id a repeat is harmless: the server refuses a second live job with it
    return this.transport.request("POST", `${this.path}/jobs`, { body: job, safe: job.id !== undefined });
  }

  /** Enqueues 1..1000 jobs in one request; one bad job does not fail the others. Results in request order. */
  async enqueueBatch(jobs: readonly JobSpec<P>[]): Promise<EnqueueResult[]> {
    const answer = await this.transport.request<{ results: (Enqueued | { error: ApiError })[] }>(
      "POST",
      `${this.path}/jobs/batch`,
      { body: { jobs }, safe: jobs.every((job) => job.id !== undefined) },
    );
    return answer.results.map((result) => ("error" in result ? { error: errorFromResult(result.error) } : result));
  }

  /** The job; JobNotFoundError when it is not (or no longer) there. */
  get(id: string): Promise<Job<P>> {
    return this.transport.request("GET", this.jobPath(id), { safe: true });
  }

  /** Cancels a delayed, ready or dead job; JobInflightError for a leased one. */
  async cancel(id: string): Promise<void> {
    await this.transport.request("DELETE", this.jobPath(id), { safe: true });
  }

  /** Moves a delayed or ready job to a new due time; JobInflightError, JobDeadError otherwise. */
  reschedule(id: string, when: When): Promise<Job<P>> {
    return this.transport.request("PUT", `${this.jobPath(id)}/schedule`, { body: when, safe: true });
  }

  /** A page of the jobs in one state, by due time (delayed, ready), lease deadline (inflight) or death (dead). */
  jobs(state: JobState, page: PageOptions = {}): Promise<Page<Job<P>>> {
    return this.transport.request("GET", `${this.path}/jobs${query({ state, ...page })}`, { safe: true });
  }

  /** Leases up to `max` due jobs, waiting up to `waitMs` for at least one; [] when none came in time. */
  async claim(options: ClaimOptions = {}): Promise<Delivery<P>[]> {
    const { signal, ...body } = options;
    // not safe: a claim whose answer was lost leased jobs no one holds (they come back when their leases end)
    const answer = await this.transport.request<{ jobs: Delivery<P>[] }>("POST", `${this.path}/claim`, {
      body,
      safe: false,
      signal,
      holdMs: body.waitMs ?? 0,
    });
    return answer.jobs;
  }

  /** Finishes a claimed job; StaleReceiptError when its lease ran out and it was leased again. */
  async ack(id: string, receipt: string): Promise<void> {
    await this.transport.request("POST", `${this.jobPath(id)}/ack`, { body: { receipt }, safe: true });
  }

  /** Acks 1..1000 claimed jobs in one request; one stale receipt does not fail the others. */
  async ackBatch(acks: readonly Ack[]): Promise<AckResult[]> {
    const answer = await this.transport.request<{ results: ({ id: string | null; acked: true } | FailedAck)[] }>(
      "POST",
      `${this.path}/ack`,
      { body: { acks }, safe: true },
    );
    return answer.results.map((result) =>
      "error" in result ? { id: result.id, error: errorFromResult(result.error) } : result,
    );
  }

  /** Fails a claimed job: retried by its backoff (or after `delayMs`), or dead when `dead` or out of attempts. */
  async nack(id: string, receipt: string, options: NackOptions = {}): Promise<void> {
    // not safe: a repeat of a nack that was done spends another attempt, or fails on the job's new receipt
    await this.transport.request("POST", `${this.jobPath(id)}/nack`, { body: { receipt, ...options }, safe: false });
  }

  /** Extends a claimed job's lease to `visibilityMs` (default the queue's) from now; resolves with `leaseUntil`. */
  async extend(id: string, receipt: string, visibilityMs?: number): Promise<number> {
    const answer = await this.transport.request<{ leaseUntil: number }>("POST", `${this.jobPath(id)}/extend`, {
      body: { receipt, visibilityMs },
      safe: true,
    });
    return answer.leaseUntil;
  }

  /** The queue: counts, settings, limits, counters; QueueNotFoundError when it does not exist. */
  info(): Promise<QueueInfo> {
    return this.transport.request("GET", this.path, { safe: true });
  }

  /** Creates the queue or updates the settings given (absent ones are kept). */
  put(settings: QueueSettings): Promise<QueueInfo> {
    return this.transport.request("PUT", this.path, { body: settings, safe: true });
  }

  /** Sets the flow-control limits, replacing the ones there; null removes them. */
  setLimits(limits: QueueLimits | null): Promise<QueueInfo> {
    return this.put({ limits });
  }

  /** Claims get no jobs until resumed; enqueues are still taken. */
  pause(): Promise<QueueInfo> {
    return this.transport.request("POST", `${this.path}/pause`, { safe: true });
  }

  resume(): Promise<QueueInfo> {
    return this.transport.request("POST", `${this.path}/resume`, { safe: true });
  }

  /**
   * Deletes the queue. Without `force` only a queue with no jobs (QueueNotEmptyError otherwise), resolving 0;
   * with `force` with all its jobs, resolving how many went.
   */
  async delete(options: { force?: boolean } = {}): Promise<number> {
    const answer = await this.transport.request<{ count: number } | undefined>(
      "DELETE",
      `${this.path}${options.force ? "?force=true" : ""}`,
      { safe: !options.force }, // a repeat of a forced delete that was done would delete the jobs enqueued since
    );
    return answer?.count ?? 0;
  }

  /**
   * Starts a worker: it claims jobs by long polls and runs `handler` on each, at most `concurrency` at once;
   * resolving acks the job (in batches), throwing or rejecting nacks it with the error's message.
   */
  worker(handler: Handler<P>, options: WorkerOptions = {}): Worker<P> {
    return new Worker(this, handler, options);
  }

  private jobPath(id: string): string {
    return `${this.path}/jobs/${encodeURIComponent(id)}`;
  }
}

interface ApiError {
  code: string;
  message: string;
}

interface FailedAck {
  id: string | null;
  error: ApiError;
}
