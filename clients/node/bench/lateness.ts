// Lateness of the client's Worker: enqueues jobs due uniformly over a spread (batch enqueue), runs a Worker with its
// defaults, and prints the lateness of each handler's start after its job's due time (this machine's clock: the
// server it starts runs here too), p50 / p99 / max, and jobs/s (handler starts per second, first to last), in one
// RESULT line. A warm-up round of jobs all due at once runs first, unmeasured.
//
//   npm run bench -- [--jobs 10000] [--min-delay-ms 1000] [--max-delay-ms 5000] [--warmup-jobs 10000]
//                    [--url http://host:port]
//                    [--concurrency N] [--pollers N]   (worker options other than its defaults, to compare)
//
// Without --url it starts a server (`<repo>/hourglass server`, built jar, embedded Redis) and stops it after.

import { Hourglass, type Delivery, type JobSpec, type WorkerOptions } from "@hourglass/client";
import { startServer, type RunningServer } from "../test/support/server.js";

interface Options {
  jobs: number;
  minDelayMs: number;
  maxDelayMs: number;
  url?: string;
  /** Jobs of a round run before the measured one, all due at once. */
  warmupJobs: number;
  /** Worker options other than the defaults (--concurrency, --pollers), for comparisons. */
  worker: WorkerOptions;
}

const BATCH = 1000;

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  const server: RunningServer | undefined = options.url === undefined ? await startServer() : undefined;
  const hourglass = new Hourglass({ url: options.url ?? (server as RunningServer).url });
  try {
    if (options.warmupJobs > 0) {
      await run(hourglass, options, options.warmupJobs, 0); // the server's JIT and this process's, all due at once
    }
    console.log(result(await run(hourglass, options, options.jobs, options.minDelayMs), options));
  } finally {
    hourglass.close();
    await server?.stop();
  }
}

interface Run {
  lateness: number[];
  duplicates: number;
  enqueueMs: number;
  /** Jobs whose batch was answered only after their due time: lateness the enqueue made, not the worker. */
  enqueuedLate: number;
  elapsedMs: number;
  acked: number;
  delivered: number;
  ackBatches: number;
}

/**
 * One round on a fresh queue: a Worker started first, then the jobs enqueued in batches of 1000 in due order, one
 * batch after the other, so that the earliest are in before they are due; resolves once every job was handled and
 * the worker stopped (its acks sent).
 */
async function run(hourglass: Hourglass, options: Options, jobs: number, minDelayMs: number): Promise<Run> {
  const queue = hourglass.queue<number>(`bench-lateness-${process.pid}-${Date.now()}`);
  const lateness: number[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  let firstStart = 0;
  let lastStart = 0;
  let allStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => (allStarted = resolve));
  const worker = queue.worker((job: Delivery<number>) => {
    const now = Date.now();
    if (seen.has(job.id)) {
      duplicates++;
      return;
    }
    seen.add(job.id);
    lateness.push(now - job.runAt);
    firstStart ||= now;
    lastStart = now;
    if (seen.size === jobs) {
      allStarted();
    }
  }, options.worker);

  const base = Date.now();
  const spread = Math.max(0, options.maxDelayMs - minDelayMs);
  const dueTimes = Array.from({ length: jobs }, () => base + minDelayMs + Math.floor(Math.random() * spread));
  dueTimes.sort((x, y) => x - y);
  let enqueuedLate = 0;
  for (let i = 0; i < jobs; i += BATCH) {
    const batch: JobSpec<number>[] = dueTimes.slice(i, i + BATCH).map((runAt, k) => ({ payload: i + k, runAt }));
    const results = await queue.enqueueBatch(batch);
    const failed = results.find((r) => r.error !== undefined);
    if (failed?.error !== undefined) {
      throw failed.error;
    }
    const answeredAt = Date.now();
    enqueuedLate += batch.filter((job) => (job.runAt as number) < answeredAt).length;
  }
  const enqueueMs = Date.now() - base;
  await started;
  await worker.stop();
  const info = await queue.info();
  await queue.delete({ force: true });
  return {
    lateness,
    duplicates,
    enqueueMs,
    enqueuedLate,
    elapsedMs: Math.max(1, lastStart - firstStart),
    acked: info.counters.acked,
    delivered: info.counters.delivered,
    ackBatches: worker.ackBatches,
  };
}

function result(r: Run, options: Options): string {
  const sorted = [...r.lateness].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
  return [
    "RESULT system=hourglass-node workload=lateness",
    `jobs=${options.jobs} min_delay_ms=${options.minDelayMs} max_delay_ms=${options.maxDelayMs}`,
    ...Object.entries(options.worker).map(([name, value]) => `${name}=${value}`),
    `p50_ms=${at(0.5)} p99_ms=${at(0.99)} max_ms=${sorted[sorted.length - 1]}`,
    `jobs_per_s=${Math.round((r.lateness.length * 1000) / r.elapsedMs)}`,
    `warmup_jobs=${options.warmupJobs} enqueue_ms=${r.enqueueMs} enqueued_late=${r.enqueuedLate}`,
    `delivered=${r.delivered} acked=${r.acked} duplicates=${r.duplicates}`,
    `ack_batches=${r.ackBatches}`,
  ].join(" ");
}

function parse(args: string[]): Options {
  const options: Options = { jobs: 10_000, minDelayMs: 1000, maxDelayMs: 5000, warmupJobs: 10_000, worker: {} };
  const numbers = ["--jobs", "--min-delay-ms", "--max-delay-ms", "--warmup-jobs", "--concurrency", "--pollers"];
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    if (value === undefined) {
      throw new Error(`${flag}: needs a value`);
    }
    if (flag === "--url") {
      options.url = value;
    } else if (flag !== undefined && numbers.includes(flag)) {
      const n = Number(value);
      const min = flag.endsWith("-ms") || flag === "--warmup-jobs" ? 0 : 1;
      if (!Number.isInteger(n) || n < min) {
        throw new Error(`${flag}: must be a whole number >= ${min}, was ${value}`);
      }
      if (flag === "--jobs") options.jobs = n;
      else if (flag === "--min-delay-ms") options.minDelayMs = n;
      else if (flag === "--max-delay-ms") options.maxDelayMs = n;
      else if (flag === "--warmup-jobs") options.warmupJobs = n;
      else if (flag === "--concurrency") options.worker.concurrency = n;
      else options.worker.pollers = n;
    } else {
      throw new Error(`unknown option ${flag}; options: ${numbers.map((f) => `${f} N`).join(" ")} --url URL`);
    }
  }
  if (options.maxDelayMs < options.minDelayMs) {
    throw new Error("--max-delay-ms must not be below --min-delay-ms");
  }
  return options;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
