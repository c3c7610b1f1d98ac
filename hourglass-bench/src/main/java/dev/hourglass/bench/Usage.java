package dev.hourglass.bench;

/** The text of {@code hourglass-bench/run --help}. */
final class Usage {
  private Usage() {}

  static final String TEXT =
      """
      Usage: hourglass-bench/run WORKLOAD [options]
             hourglass-bench/run jmh [JMH options]      (micro-benchmarks; -h for JMH's help)
             hourglass-bench/run compression            (zstd on order documents cut to 64 to
                                                         1024 bytes: stored size over payload size
                                                         and microseconds to compress and open one,
                                                         with and without a trained dictionary,
                                                         native and pure Java)
             hourglass-bench/run archive [--jobs N] [--payload-bytes B] [--redis URI]
                                                        (the archive's cost per finished job on
                                                         Hourglass alone, into an embedded
                                                         PostgreSQL; see docs/ARCHIVE.md)
             hourglass-bench/run limits [--rate N] [--period-ms P] [--seconds S]
                                        [--partitions K] [--workers W] [--redis URI]
                                                        (a rate limit's achieved rate against the
                                                         limit: a queue limited to N [1000]
                                                         deliveries per P ms [1000] with more ready
                                                         jobs than S s [60] can deliver, W workers
                                                         [2]; deliveries/s achieved over S s against
                                                         the limit's, the most starts in any window
                                                         of P ms, script calls per delivery;
                                                         Hourglass alone; see docs/BENCHMARKS.md)
             hourglass-bench/run failover [--producers N] [--seconds S] [--lag-ms L]
                                                        (acknowledged enqueues lost when the master
                                                         of a Sentinel group, 1 master, 1 replica,
                                                         3 sentinels, is SIGKILLed, without and
                                                         with replica-acknowledged writes; their
                                                         enqueue rate on a healthy group; time to
                                                         recover; Hourglass alone; producers [16],
                                                         seconds before the kill and after
                                                         recovery, and of each rate [5]; the
                                                         replica is stalled L ms [3000] before the
                                                         kill, so that it lags;
                                                         see docs/RELIABILITY.md)
             hourglass-bench/run cluster [--jobs N] [--max-delay-ms D] [--rounds R]
                                         [--colocate] [--callgrind] [--payload-bytes B]
                                                        (one queue at P = 3 and at P = 1 partitions
                                                         on a three-master embedded Redis Cluster:
                                                         N jobs [50000] due over [0, D) ms [2000],
                                                         payloads of B bytes [1],
                                                         ids made and delivered by one Worker with
                                                         the library's defaults; per run jobs/s
                                                         and each master's Redis CPU (INFO cpu)
                                                         per job; RATIO, medians of R rounds [5]:
                                                         the busiest master's CPU per job at P = 3
                                                         over P = 1, and its share of the three
                                                         masters' CPU at P = 3 (target <= 0.40);
                                                         Hourglass alone: RDelayedQueue
                                                         keeps a queue in one hash slot, so it
                                                         cannot span nodes; --colocate first moves
                                                         the P = 3 partitions onto one master and
                                                         prints COLOCATED, P = 3 over P = 1 on
                                                         that one master (1.0: partitioning adds
                                                         no Redis work per job); --callgrind runs
                                                         the masters under valgrind's callgrind
                                                         (about 50x slower; N [10000]) and adds
                                                         each master's Redis instructions per job,
                                                         script calls per 1000 jobs by script, and
                                                         to COLOCATED or RATIO the same ratios of
                                                         instructions, which repeat where CPU
                                                         seconds do not; needs valgrind; see
                                                         docs/BENCHMARKS.md)
             hourglass-bench/run soak --minutes M --seed S [--topology standalone|sentinel|
                                                         cluster] ...
                                                        (faults from the seed against Redis (kills,
                                                         stalls, TCP proxy faults, failovers), the
                                                         server and consumer JVMs; a verdict from
                                                         a ledger outside Redis; soak --help and
                                                         docs/RELIABILITY.md)
             hourglass-bench/run first-touch [STEPS]    (what this machine charges per 4 KB page of
                                                         new memory, in STEPS blocks of 256 MB,
                                                         1 to 64 [12])

      Runs WORKLOAD on each system in turn (Hourglass, then Redisson's RDelayedQueue with consumers
      on its RBlockingQueue) against the same Redis, with FLUSHALL before each system, and prints per
      system one line
        RESULT system=<name> workload=<name> key=value ...
      then one line
        RATIO workload=<name> key=value ...
      The scale workload first runs a raw-Redis baseline the same way and prints its RESULT line,
      system=redis-baseline, before the systems' (see scale below).
      Every ratio is oriented so that a value above 1 means Hourglass does better:
        *_x_faster = hourglass / redisson   (rates: jobs/s)
        *_x_lower  = redisson / hourglass   (costs: lateness ms, bytes per job, commands/s);
                     lateness is floored at 1 ms for the ratio.
      Other lines start with '#'. RDelayedQueue is deprecated in Redisson 4 in favour of its paid
      RReliableQueue; the ERROR Redisson logs about that on every use is silenced.

      Workloads:
        enqueue  jobs/s of single async enqueues (at most --window in flight) and of batches of
                 --batch-size, 4 batches in flight (Hourglass: Queue.enqueueAllAsync; Redisson has
                 no batch path for RDelayedQueue, so offerAsync calls pipelined per batch). Every
                 workload that fills a queue uses the same batches. Jobs are due in 30 min.
        e2e      --jobs jobs due uniformly over [--min-delay-ms, --max-delay-ms] after the start,
                 enqueued in batches while --consumers consumers ack them (Hourglass: one Worker
                 with that concurrency; Redisson: threads looping take()). Reports delivered,
                 duplicates, lateness p50/p99/p999/max (delivery wall clock - due, ms) and jobs/s
                 end to end = delivered / (last delivery - first due). stored_late counts the
                 jobs whose batch call completed after their due time (when the enqueue outlasts
                 --min-delay-ms); stored_in_time_lateness_* cover the others, whose lateness is
                 the delivery's alone.
                 Everything due at one instant: equal delays past the enqueue's end (e.g. both
                 4000); with both 0 the jobs fall due while still being enqueued, so the rate
                 includes the enqueue.
                 Gives up after max delay + --timeout-s.
        memory   Redis used_memory growth per pending job at --jobs pending jobs (due in 1-2 h).
                 With --payload order, each job's payload is an order document of about 1 KB of
                 JSON (hourglass-testing's OrderDocuments): compare --compress-above 0 (stored as
                 given) with the default (compressed, with the queue's trained dictionary).
        cost     what one job's life costs, enqueue to ack: the e2e workload (--jobs [100000] due
                 over [--min-delay-ms, --max-delay-ms] [1000-3000], --consumers [4]) per system,
                 --rounds times [3] after the warm-up, and per job the medians of Redis's CPU
                 (INFO cpu: redis_cpu_us_per_job), its calls (script calls and commands no script
                 may run) and commands (those inside scripts included; INFO commandstats, the
                 harness's own left out), this JVM's CPU and allocation (client_cpu_us_per_job,
                 client_alloc_kb_per_job: producer and consumers, JIT and GC included; of that
                 CPU, client_jit_us_per_job is the JIT compilers' time), each round's figures
                 beside them (*_rounds); for Hourglass the script calls per 1000 jobs by script.
                 Then the same workload, --callgrind-jobs jobs [10000; 0 skips it], on a fresh
                 client against a second Redis run under valgrind --tool=callgrind
                 (after a 1000-job burst not counted): callgrind_redis_instructions_per_job, which
                 repeats where seconds do not. Systems [hourglass,redisson,redis-raw]: redis-raw
                 is the floor, the same primitive work without Lua, pipelined by Lettuce (per job
                 HSET of its record into one of 40 pool hashes, HGET when claimed, HDEL when
                 acked; per claim of up to 100 ZRANGEBYSCORE and ZREM on a time index, ZADD to an
                 inflight index and HSET of a lease each; per ack ZREM and HDEL of those; one ZADD
                 per enqueue batch), keeping none of a queue's promises. A second RATIO line,
                 versus=redis-raw, gives Hourglass over the floor (redis_cpu_x_raw,
                 redis_instructions_x_raw, client_cpu_x_raw: 1.0 is the floor's cost). Needs
                 valgrind (Debian: apt-get install valgrind).
        scale    fills the queue to --jobs pending (due in 1-2 h; Redisson capped at
                 --redisson-cap), reports the fill rate per tenth, memory, the largest keys
                 (SCAN + MEMORY USAGE ... SAMPLES 0), then the e2e figures of a fresh burst of
                 --burst-jobs due over [--min-delay-ms, --max-delay-ms] while the others wait.
                 fill_last_over_first, the fill ratio, is the last tenth's rate over the first's.
                 fill_tenths_redis_us_per_job: Redis's CPU time (INFO cpu, user + system, page
                 faults included) per job stored in each tenth; fill_redis_ratio, the first
                 tenth's over the last's, is the fill ratio of a fill bound by Redis;
                 fill_redis_us_growth = last tenth's - first's. These need tenths that last a
                 second or so (a million jobs): the kernel counts CPU time coarsely.
                 fill_redis_cpu_pct and fill_client_cpu_pct (this JVM): CPU time over the fill's
                 wall time; the side near 100 was the bottleneck. fill_calls_per_1000_jobs: the
                 commands Redis ran (INFO commandstats, those inside scripts included).
                 Before the systems, a raw-Redis baseline (RESULT system=redis-baseline) fills
                 --jobs jobs with the commands Hourglass's enqueue script runs for such jobs,
                 into keys of the same kinds and number under the prefix 'baseline': per 500 jobs
                 (one script call) HMGET of the meta hash and TIME; per pool hash (40, staggered
                 as Hourglass's) an HMGET of its ids and an HSET of id and 150-byte record each;
                 per one-minute slot list an LLEN, a ZADD to the slot index when the list is new
                 and an RPUSH of the ids; HINCRBY of the enqueued counter. Pipelined by Lettuce
                 without Lua, in the same batches; then FLUSHALL and MEMORY PURGE, so that the
                 next fill pays for new memory as the baseline did. Redis needs a third of the
                 time per job it needs for Hourglass's script, so on a few cores this JVM, not
                 Redis, bounds the baseline's rate: both fill ratios are read in Redis's time.
                 A system filled to the same size gets the baseline's fill_redis_ratio as
                 fill_ratio_baseline, fill_ratio_below_baseline (that minus the system's own
                 fill_redis_ratio) and fill_ratio_target_met (below by at most 0.10:
                 Hourglass's target); and beside
                 the baseline's fill_redis_us_growth, as fill_redis_us_growth_baseline: what
                 the system's grew beyond it is the system's own.
        idle     Redis commands/s (INFO commandstats, the harness's own INFO excluded) caused by
                 --consumers idle consumers and the promoter / transfer over --seconds, with
                 --jobs jobs pending, due in 1 h (Hourglass: that many Workers with default
                 options; Redisson: threads blocked in take()), and --queues more queues with
                 no consumer; also Redis's CPU (redis_cpu_pct, INFO cpu) and this JVM's
                 (process_cpu_pct: the in-process server's, for hourglass-http) over the window.
                 Redis counts a blocking command when it returns, so the window should be longer
                 than any client's block timeout (Hourglass: 30 s by default). With --queues,
                 the window starts 30 s after the queues exist (the server finds new queues
                 every 10 s, and an idle promoter's sweep backs off to 10 s).

        http-enqueue
                 the server's single-enqueue rate: POST /v1/queues/{queue}/jobs, one job per
                 request (a --payload-bytes payload as a base64 string, delayMs 30 min), sent by
                 the wrk load tool (needs wrk on the PATH; Debian/Ubuntu: apt-get install wrk) on
                 --connections keep-alive connections for --seconds, to the server running in
                 this JVM (system hourglass-http); then, in the same run, the library's single
                 enqueueAsync rate with --connections calls in flight (system hourglass).
                 Reports requests_per_s, wrk's latency_p50/p75/p90/p99_ms, non_2xx (any fails the
                 run), socket_errors, and per request the CPU time of this JVM (the server's: the
                 harness does nothing meanwhile; JIT compilation included) and of Redis, and the
                 memory this JVM's threads allocated (server_cpu_us_per_request,
                 redis_cpu_us_per_request, server_alloc_kb_per_request); for the library
                 single_jobs_per_s and the same per job (client_cpu_us_per_job,
                 redis_cpu_us_per_job, client_alloc_kb_per_job). RATIO: library_x_faster =
                 library jobs/s / server requests/s. Each warm-up round is a whole wrk run for
                 the server and --warmup-jobs jobs for the library. The costs per request depend
                 less than the rates on what else the machine runs.

        forward  --jobs jobs due uniformly over [--min-delay-ms, --max-delay-ms] [10000, 1000-5000],
                 forwarded by one Forwarder (hourglass-forward, --concurrency publishes awaiting the
                 broker's confirm) to a broker this harness starts as the tests do (--broker amqp:
                 Debian's rabbitmq-server, needs /usr/lib/rabbitmq/bin/rabbitmq-server; kafka: a
                 single-node KRaft broker in this JVM) and received there by one consumer. Reports
                 delivered, duplicates, early, forward_jobs_per_s = received / (last receive - first
                 due) and lateness p50/p99/max = consumer receive wall clock - due time (Redis's
                 clock, same machine). Hourglass only (--systems hourglass): Redisson has no
                 forwarder, so the RATIO line says note=needs_both_systems. No warm-up run.

        priority --jobs jobs of priority 9 [1000] due uniformly over [--min-delay-ms,
                 --max-delay-ms] [1000-5000], consumed by one worker of --consumers threads [4]
                 whose handler takes 1 ms per job, leasing no more than its free threads
                 (prefetch 0): first on an empty queue (fields empty_*), then while --backlog
                 ready jobs of priority 0 [100000] wait in the same queue. Reports delivered,
                 early, lateness p50/p99/max of the priority-9 jobs = handler wall clock - due time
                 (Redis's clock, same machine), and backlog_ready_at_end (priority-0 jobs still
                 ready when the last priority-9 job came). Hourglass only (--systems hourglass):
                 the RATIO line says note=needs_both_systems. Both rounds run first at a tenth of
                 the size, unreported, to warm the JIT.

      Options (defaults in brackets):
        --jobs N              jobs [enqueue, e2e, memory: 100000; scale: 10000000; idle: 1]
        --payload-bytes B     payload size, random bytes; the first 8 carry the due time (epoch ms),
                              the next 4 the job's sequence number [120; at least 12]
        --payload KIND        random (of --payload-bytes) or order: the 12 bytes, then an order
                              document of about 1 KB of JSON, different per job [random]
        --compress-above B    the Hourglass clients' compressAbove: payloads of B bytes or more
                              stored compressed, 0 never [unset: the library's default, 128]
        --partitions P        the Hourglass queue's partitions [unset: the library's default, 1]
        --min-delay-ms MS     [e2e and scale burst: 1000; memory: 3600000]
        --max-delay-ms MS     [e2e and scale burst: 3000; memory: 7200000]
        --consumers C         consumer threads [4; idle: 10 consumers]
        --backlog N           priority: ready jobs of priority 0 [100000]
        --redis URL           use this Redis (it is FLUSHALLed!) instead of starting the embedded one
        --systems LIST        comma-separated, from hourglass,redisson,hourglass-http,redis-raw
                              [hourglass,redisson; cost: hourglass,redisson,redis-raw];
                              redis-raw, the cost workload's floor (see cost);
                              hourglass-http runs the Hourglass server
                              in-process and drives it over HTTP from this JVM (JSON payloads:
                              the bytes as a base64 string; consumers claim up to 100 per
                              long-poll and ack each job with its own request; at most 64
                              requests in flight)
        --prefetch N          e2e and scale: the most jobs the Hourglass Worker may hold leased
                              beyond its --consumers handler threads (WorkerOptions.prefetch; it
                              adapts below that to the handlers' speed; Redisson's take() has no
                              counterpart) [unset: the library's default, 1000]
        --queues N            idle: N more queues, each holding --jobs jobs due in 1 h, with no
                              consumer (hourglass: a producing client, which runs no promoter
                              for them; hourglass-http: the server, which promotes every queue;
                              redisson: N RDelayedQueues, each with its transfer task) [0]
        --window W            single enqueues in flight at most [2000]
        --connections C       http-enqueue: wrk's connections, and the library's calls in flight
                              [64]
        --batch-size N        jobs per batch enqueue call [1000]
        --warmup-jobs N       enqueue, e2e, scale, http-enqueue: a run of N jobs on a scratch queue
                              first, not reported, to warm the JIT (scale: N pending plus the
                              --burst-jobs burst; http-enqueue: the library's rounds, the
                              server's being wrk runs of --seconds) [enqueue, http-enqueue:
                              min(100000, jobs); e2e: min(10000, jobs), since a Redisson e2e run
                              of 100k takes most of a minute; scale: 0]
        --warmup-rounds R     make the warm-up run R times, each on a fresh client and a flushed
                              Redis, as the measured run is. One round of 100k e2e jobs leaves
                              the JIT compiling through the measured run; the lateness rows of
                              docs/BENCHMARKS.md use 3. Each round prints its own figures
                              [enqueue: 5, since the Hourglass client's single-call rate still
                              climbed through the fourth round; http-enqueue: 4, since the
                              server's CPU per request still fell through the fourth; the
                              others: 1]
        --timeout-s S         e2e and scale burst: give up S seconds after the last due time [120]
        --redisson-cap N      scale: most jobs Redisson is filled with, 0 for no cap [1000000]
        --burst-jobs N        scale: jobs of the e2e burst [100000]
        --seconds S           idle: measuring window [30]; http-enqueue: each wrk run [20]
        --seed N              seed of the random payloads and due times [1]
        --rounds R            cost: measured runs per system, medians reported [3]; cluster: see
                              above [5]
        --callgrind-jobs N    cost: jobs of the run under callgrind [10000]; 0: none
        --redis-server PATH   cost: the redis-server binary of both Redis servers, e.g. Debian's
                              /usr/bin/redis-server [the embedded one]
        --broker B            forward: amqp or kafka [amqp]
        --concurrency N       forward: publishes awaiting the broker's confirm at most [256, the library's default]
        --help                this text
      Exit codes: 0 done, 1 failed, 2 bad command line.
      Launcher environment: JAVA_OPTS (default -Xmx4g); HOURGLASS_BENCH_SKIP_BUILD=1 reuses the last
      build; HG_TARGET=dir builds into <module>/dir instead of <module>/target.
      """;
}
