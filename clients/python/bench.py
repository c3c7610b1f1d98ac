"""Lateness of the Python Worker: jobs due uniformly over a spread, handled by a Worker with its defaults.

    python3 bench.py [--url URL] [--jobs 10000] [--min-delay-ms 1000] [--max-delay-ms 5000] [--concurrency N]
                   [--prefetch N] [--warmup-rounds 1]

Without --url it starts a server of its own (``HOURGLASS_SKIP_BUILD=1 ../../hourglass server`` on a free port and a
temporary data directory; build the jar first) and stops it after. Each run (--warmup-rounds whole runs first, on
queues of their own, printed as comments, then the measured one) enqueues the jobs in batches of 1,000, each due at a
time drawn uniformly from [min, max] ms after the start, then starts one Worker (the library's defaults unless
--concurrency or --prefetch is given) that consumes them, and prints one line:

    RESULT system=python-worker workload=e2e jobs=.. delivered=.. duplicates=.. lateness_p50_ms=..
           lateness_p99_ms=.. lateness_max_ms=.. jobs_per_s=.. ack_requests=.. enqueue_ms=.. stored_late=..
           stored_in_time_lateness_p99_ms=.. stored_in_time_lateness_max_ms=.. client_cpu_us_per_job=..
           timed_out=false

lateness = the time the handler got a job minus its due time (``runAt``), both on this machine's clock; jobs_per_s =
delivered / (last delivery - first due); stored_late counts the jobs due before the enqueue ended (nonzero when
enqueueing took longer than --min-delay-ms: their lateness is partly the enqueue's), stored_in_time_* cover the
others; client_cpu_us_per_job is this process's CPU time (user and system, enqueue included) per job.
"""

import argparse
import random
import resource
import sys
import threading
import time
import uuid
from typing import Dict, List, Tuple

from hourglass import ClaimedJob, Client, Enqueued, NewJob, Worker


def percentile(sorted_values: List[float], share: float) -> float:
    index = min(len(sorted_values) - 1, max(0, int(round(share * len(sorted_values) + 0.5)) - 1))
    return sorted_values[index]


def run(url: str, jobs: int, min_delay_ms: int, max_delay_ms: int, worker_options: Dict[str, int], line: str) -> int:
    client = Client(url)
    queue = "bench-" + uuid.uuid4().hex[:8]
    got: Dict[str, Tuple[float, int]] = {}  # id -> (handler's time, due time), epoch ms
    duplicates = 0
    lock = threading.Lock()
    all_in = threading.Event()

    def handle(job: ClaimedJob) -> None:
        nonlocal duplicates
        now_ms = time.time() * 1000
        with lock:
            if job.id in got:
                duplicates += 1
                return
            got[job.id] = (now_ms, job.run_at or 0)
            if len(got) == jobs:
                all_in.set()

    cpu_before = _cpu_s()
    start_ms = int(time.time() * 1000)
    rng = random.Random(42)
    due = [start_ms + rng.randint(min_delay_ms, max_delay_ms) for _ in range(jobs)]
    results = client.enqueue_batch(queue, [NewJob(i, run_at=at) for i, at in enumerate(due)])
    failed = [r for r in results if not isinstance(r, Enqueued)]
    if failed:
        print(f"# {len(failed)} enqueues failed, the first: {failed[0]}", file=sys.stderr)
        return 1
    enqueue_ms = time.time() * 1000 - start_ms
    stored_late = sum(1 for at in due if at < start_ms + enqueue_ms)  # due before the enqueue ended
    worker = Worker(client, queue, handle, **worker_options).start()
    finished = all_in.wait(max_delay_ms / 1000 + 60)  # gives up after the last due time and a minute
    worker.stop()
    stats = worker.stats()
    cpu_us_per_job = (_cpu_s() - cpu_before) * 1e6 / jobs
    client.close()
    lateness = sorted(handled - run_at for handled, run_at in got.values())
    enqueue_end_ms = start_ms + enqueue_ms
    in_time = sorted(handled - run_at for handled, run_at in got.values() if run_at >= enqueue_end_ms) or [0.0]
    span_s = (max(handled for handled, _ in got.values()) - min(due)) / 1000 if got else 0.0
    print(
        f"{line} system=python-worker workload=e2e jobs={jobs} delivered={len(got)} duplicates={duplicates}"
        f" lateness_p50_ms={percentile(lateness, 0.50):.0f} lateness_p99_ms={percentile(lateness, 0.99):.0f}"
        f" lateness_max_ms={lateness[-1]:.0f} jobs_per_s={len(got) / span_s:.0f} ack_requests={stats.ack_requests}"
        f" enqueue_ms={enqueue_ms:.0f} stored_late={stored_late}"
        f" stored_in_time_lateness_p99_ms={percentile(in_time, 0.99):.0f}"
        f" stored_in_time_lateness_max_ms={in_time[-1]:.0f} client_cpu_us_per_job={cpu_us_per_job:.0f} timed_out={str(not finished).lower()}"
    )
    return 0 if finished and duplicates == 0 else 1


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--jobs", type=int, default=10_000)
    parser.add_argument("--min-delay-ms", type=int, default=1000)
    parser.add_argument("--max-delay-ms", type=int, default=5000)
    parser.add_argument("--concurrency", type=int, help="handler threads (default: the Worker's)")
    parser.add_argument("--prefetch", type=int, help="jobs claimed beyond the free threads (default: the Worker's)")
    parser.add_argument("--pollers", type=int, help="claims the worker keeps waiting at once (default: the Worker's)")
    parser.add_argument("--warmup-rounds", type=int, default=1, help="whole runs before the measured one (1)")
    args = parser.parse_args()
    if args.jobs < 1 or not 0 <= args.min_delay_ms <= args.max_delay_ms:
        parser.error("needs --jobs >= 1 and 0 <= --min-delay-ms <= --max-delay-ms")
    given = (("concurrency", args.concurrency), ("prefetch", args.prefetch), ("pollers", args.pollers))
    options = {k: v for k, v in given if v is not None}

    def rounds(url: str) -> int:
        for _ in range(args.warmup_rounds):
            run(url, args.jobs, args.min_delay_ms, args.max_delay_ms, options, "# warm-up:")
        return run(url, args.jobs, args.min_delay_ms, args.max_delay_ms, options, "RESULT")

    if args.url:
        return rounds(args.url)
    from tests.support import ServerProcess

    server = ServerProcess().start()
    try:
        return rounds(server.url)
    finally:
        server.close()


if __name__ == "__main__":
    sys.exit(main())
