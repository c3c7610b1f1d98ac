// Lateness of the client's Worker: enqueues jobs due uniformly over a spread (batch enqueue), runs a Worker with its
// defaults, and prints the lateness of each handler's start after its job's due time (this machine's clock: the
// server it starts runs here too), p50 / p99 / max, and jobs/s, in one RESULT line.
//
//   npm run bench -- [--jobs 10000] [--min-delay-ms 1000] [--max-delay-ms 5000] [--url http://host:port]
//
// Without --url it starts a server (`<repo>/hourglass server`, built jar, embedded Redis) and stops it after.

import { Hourglass, type Delivery, type JobSpec } from "@hourglass/client";
import { startServer, type RunningServer } from "../test/support/server.js";

interface Options {
  jobs: number;
  minDelayMs: number;
  maxDelayMs: number;
  url: string | undefined;
}

const BATCH = 1000;

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  const server: RunningServer | undefined = options.url === undefined ? await startServer() : undefined;
  const hourglass = new Hourglass({ url: options.url ?? (server as RunningServer).url });
  try {
    console.log(result(await run(hourglass, options), options));
  } finally {
    hourglass.close();
    await server?.stop();
  }
}

interface Run {
  lateness: number[];
  duplicates: number;
  enqueueMs: number;
  elapsedMs: number;
  acked: number;
  delivered: number;
  ackBatches: number;
}

async function run(hourglass: Hourglass, options: Options): Promise<Run> {
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
    if (seen.size === options.jobs) {
      allStarted();
    }
  });

  const base = Date.now();
  const spread = options.maxDelayMs - options.minDelayMs;
  const batches: JobSpec<number>[][] = [];
  for (let i = 0; i < options.jobs; i += BATCH) {
    const size = Math.min(BATCH, options.jobs - i);
    batches.push(
      Array.from({ length: size }, (_, k) => ({
        payload: i + k,
        runAt: base + options.minDelayMs + Math.floor(Math.random() * spread),
      })),
    );
  }
  await Promise.all(
    batches.map(async (jobs) => {
      const results = await queue.enqueueBatch(jobs);
      const failed = results.find((r) => r.error !== undefined);
      if (failed?.error !== undefined) {
        throw failed.error;
      }
    }),
  );
  const enqueueMs = Date.now() - base;
  await started;
  await worker.stop();
  const info = await queue.info();
  await queue.delete({ force: true });
  return {
    lateness,
    duplicates,
    enqueueMs,
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
    `p50_ms=${at(0.5)} p99_ms=${at(0.99)} max_ms=${sorted[sorted.length - 1]}`,
    `jobs_per_s=${Math.round((r.lateness.length * 1000) / r.elapsedMs)}`,
    `enqueue_ms=${r.enqueueMs} delivered=${r.delivered} acked=${r.acked} duplicates=${r.duplicates}`,
    `ack_batches=${r.ackBatches}`,
  ].join(" ");
}

function parse(args: string[]): Options {
  const options: Options = { jobs: 10_000, minDelayMs: 1000, maxDelayMs: 5000, url: undefined };
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    if (value === undefined) {
      throw new Error(`${flag}: needs a value`);
    }
    if (flag === "--url") {
      options.url = value;
    } else if (flag === "--jobs" || flag === "--min-delay-ms" || flag === "--max-delay-ms") {
      const n = Number(value);
      if (!Number.isInteger(n) || n < (flag === "--jobs" ? 1 : 0)) {
        throw new Error(`${flag}: must be a whole number${flag === "--jobs" ? " >= 1" : " >= 0"}, was ${value}`);
      }
      if (flag === "--jobs") options.jobs = n;
      else if (flag === "--min-delay-ms") options.minDelayMs = n;
      else options.maxDelayMs = n;
    } else {
      throw new Error(`unknown option ${flag}; options: --jobs N --min-delay-ms N --max-delay-ms N --url URL`);
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
