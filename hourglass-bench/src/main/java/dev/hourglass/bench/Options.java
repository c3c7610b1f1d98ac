package dev.hourglass.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command line of one run: a workload name and its options. Options a workload gives its own
 * default for (jobs, delays, consumers, timeout, warm-up) stay unset until the workload asks with
 * its default.
 */
final class Options {
  static final List<String> SYSTEMS = List.of("hourglass", "redisson");

  /** Systems run only when asked for by --systems. */
  static final List<String> EXTRA_SYSTEMS = List.of("hourglass-http");

  static final List<String> WORKLOADS = List.of("enqueue", "e2e", "memory", "scale", "idle");

  static final String USAGE =
      """
      Usage: hourglass-bench/run WORKLOAD [options]
             hourglass-bench/run jmh [JMH options]      (micro-benchmarks; -h for JMH's help)
             hourglass-bench/run first-touch [STEPS]    (what this machine charges per 4 KB page of
                                                         new memory, in STEPS blocks of 256 MB,
                                                         1 to 64 [12])

      Runs WORKLOAD on each system in turn (Hourglass, then Redisson's RDelayedQueue with consumers
      on its RBlockingQueue) against the same Redis, with FLUSHALL before each system, and prints per
      system one line
        RESULT system=<name> workload=<name> key=value ...
      then one line
        RATIO workload=<name> key=value ...
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
        scale    fills the queue to --jobs pending (due in 1-2 h; Redisson capped at
                 --redisson-cap), reports the fill rate per tenth, memory, the largest keys
                 (SCAN + MEMORY USAGE ... SAMPLES 0), then the e2e figures of a fresh burst of
                 --burst-jobs due over [--min-delay-ms, --max-delay-ms] while the others wait.
        idle     Redis commands/s (INFO commandstats, the harness's own INFO excluded) caused by
                 --consumers idle consumers and the promoter / transfer over --seconds, with
                 --jobs jobs pending, due in 1 h (Hourglass: that many Workers with default
                 options; Redisson: threads blocked in take()). Redis counts a blocking command
                 when it returns, so the window should be longer than any client's block timeout
                 (Hourglass: 30 s by default).

      Options (defaults in brackets):
        --jobs N              jobs [enqueue, e2e, memory: 100000; scale: 10000000; idle: 1]
        --payload-bytes B     payload size, random bytes; the first 8 carry the due time (epoch ms),
                              the next 4 the job's sequence number [120; at least 12]
        --min-delay-ms MS     [e2e and scale burst: 1000; memory: 3600000]
        --max-delay-ms MS     [e2e and scale burst: 3000; memory: 7200000]
        --consumers C         consumer threads [4; idle: 10 consumers]
        --redis URL           use this Redis (it is FLUSHALLed!) instead of starting the embedded one
        --systems LIST        comma-separated, from hourglass,redisson,hourglass-http
                              [hourglass,redisson]; hourglass-http runs the Hourglass server
                              in-process and drives it over HTTP from this JVM (JSON payloads:
                              the bytes as a base64 string; consumers claim up to 100 per
                              long-poll and ack each job with its own request; at most 64
                              requests in flight)
        --prefetch N          e2e and scale: the Hourglass Worker's prefetch, jobs it may hold
                              leased beyond its --consumers handler threads (WorkerOptions.prefetch;
                              Redisson's take() has no counterpart) [0, the library's default]
        --window W            single enqueues in flight at most [2000]
        --batch-size N        jobs per batch enqueue call [1000]
        --warmup-jobs N       enqueue, e2e and scale: a run of N jobs on a scratch queue first, not
                              reported, to warm the JIT (scale: N pending plus the --burst-jobs
                              burst) [enqueue: min(100000, jobs); e2e: min(10000, jobs), since a
                              Redisson e2e run of 100k takes most of a minute; scale: 0]
        --warmup-rounds R     make the warm-up run R times, each on a fresh client and a flushed
                              Redis, as the measured run is. One round of 100k e2e jobs leaves
                              the JIT compiling through the measured run; the lateness rows of
                              docs/BENCHMARKS.md use 6. Each round prints its own figures
                              [enqueue: 5, since the Hourglass client's single-call rate still
                              climbed through the fourth round; the others: 1]
        --timeout-s S         e2e and scale burst: give up S seconds after the last due time [120]
        --redisson-cap N      scale: most jobs Redisson is filled with, 0 for no cap [1000000]
        --burst-jobs N        scale: jobs of the e2e burst [100000]
        --seconds S           idle: measuring window [30]
        --seed N              seed of the random payloads and due times [1]
        --help                this text
      Exit codes: 0 done, 1 failed, 2 bad command line.
      Launcher environment: JAVA_OPTS (default -Xmx4g); HOURGLASS_BENCH_SKIP_BUILD=1 reuses the last
      build; HG_TARGET=dir builds into <module>/dir instead of <module>/target.
      """;

  private static final List<String> VALUE_OPTIONS =
      List.of(
          "jobs",
          "payload-bytes",
          "min-delay-ms",
          "max-delay-ms",
          "consumers",
          "redis",
          "systems",
          "window",
          "batch-size",
          "warmup-jobs",
          "warmup-rounds",
          "timeout-s",
          "redisson-cap",
          "burst-jobs",
          "seconds",
          "seed",
          "prefetch");

  private final String workload;
  private final boolean help;
  private final Map<String, String> values;

  private Options(String workload, boolean help, Map<String, String> values) {
    this.workload = workload;
    this.help = help;
    this.values = values;
  }

  /** Thrown for a bad command line; the launcher exits with code 2. */
  static final class UsageException extends Exception {
    UsageException(String message) {
      super(message);
    }
  }

  static Options parse(String... args) throws UsageException {
    String workload = null;
    boolean help = false;
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--help") || arg.equals("-h")) {
        help = true;
      } else if (arg.startsWith("--")) {
        String name = arg.substring(2);
        String value = null;
        int eq = name.indexOf('=');
        if (eq >= 0) {
          value = name.substring(eq + 1);
          name = name.substring(0, eq);
        }
        if (!VALUE_OPTIONS.contains(name)) {
          throw new UsageException("unknown option --" + name);
        }
        if (value == null) {
          if (i + 1 >= args.length) {
            throw new UsageException("--" + name + " needs a value");
          }
          value = args[++i];
        }
        values.put(name, value);
      } else if (workload == null) {
        workload = arg;
      } else {
        throw new UsageException("unexpected argument '" + arg + "' after workload " + workload);
      }
    }
    Options o = new Options(workload, help, values);
    if (!help) {
      o.check();
    }
    return o;
  }

  /** Checks every value now, so that a bad one fails before any Redis is started. */
  private void check() throws UsageException {
    if (workload == null) {
      throw new UsageException("no workload given; one of " + String.join(", ", WORKLOADS));
    }
    if (!WORKLOADS.contains(workload)) {
      throw new UsageException(
          "unknown workload '" + workload + "'; one of " + String.join(", ", WORKLOADS));
    }
    for (String name : List.of("jobs", "window", "batch-size", "seconds")) {
      intOption(name, 1, 1, Integer.MAX_VALUE);
    }
    intOption("warmup-rounds", 1, 0, 100);
    for (String name : List.of("warmup-jobs", "redisson-cap", "burst-jobs", "timeout-s")) {
      intOption(name, 0, 0, Integer.MAX_VALUE);
    }
    intOption("prefetch", 0, 0, 100_000); // WorkerOptions' limit
    intOption("consumers", 1, 1, 10_000);
    intOption("payload-bytes", 120, Payloads.HEADER_BYTES, 1024 * 1024);
    longOption("seed", 1, Long.MIN_VALUE, Long.MAX_VALUE);
    long min = longOption("min-delay-ms", 0, 0, Long.MAX_VALUE / 4);
    long max = longOption("max-delay-ms", 0, 0, Long.MAX_VALUE / 4);
    if (values.containsKey("min-delay-ms") && values.containsKey("max-delay-ms") && min > max) {
      throw new UsageException("--min-delay-ms " + min + " is above --max-delay-ms " + max);
    }
    systems();
    String redis = values.get("redis");
    if (redis != null && !(redis.startsWith("redis://") || redis.startsWith("rediss://"))) {
      throw new UsageException("--redis must be a redis:// or rediss:// URL, was '" + redis + "'");
    }
  }

  boolean help() {
    return help;
  }

  String workload() {
    return workload;
  }

  /** Jobs, capped or not, with the workload's default. */
  int jobs(int dflt) {
    return intOrDefault("jobs", dflt);
  }

  int payloadBytes() {
    return intOrDefault("payload-bytes", 120);
  }

  /** A delay range in ms. */
  record Delays(long minMs, long maxMs) {
    @Override
    public String toString() {
      return minMs + "-" + maxMs;
    }
  }

  /**
   * The delay range from {@code --min-delay-ms} and {@code --max-delay-ms}, each defaulting to the
   * workload's; when only one is given and it falls outside the default range, the other follows.
   */
  Delays delays(long dfltMin, long dfltMax) {
    long min = longOrDefault("min-delay-ms", dfltMin);
    long max = longOrDefault("max-delay-ms", dfltMax);
    if (!values.containsKey("max-delay-ms")) {
      max = Math.max(max, min);
    }
    if (!values.containsKey("min-delay-ms")) {
      min = Math.min(min, max);
    }
    return new Delays(min, max);
  }

  int consumers(int dflt) {
    return intOrDefault("consumers", dflt);
  }

  /** The Redis URL given, or null to start the embedded one. */
  String redis() {
    return values.get("redis");
  }

  List<String> systems() throws UsageException {
    String list = values.get("systems");
    if (list == null) {
      return SYSTEMS;
    }
    List<String> systems = new ArrayList<>();
    for (String s : list.split(",")) {
      String name = s.trim();
      if (!SYSTEMS.contains(name) && !EXTRA_SYSTEMS.contains(name)) {
        throw new UsageException(
            "unknown system '"
                + name
                + "' in --systems; from "
                + String.join(",", SYSTEMS)
                + ","
                + String.join(",", EXTRA_SYSTEMS));
      }
      if (!systems.contains(name)) {
        systems.add(name);
      }
    }
    if (systems.isEmpty()) {
      throw new UsageException("--systems is empty");
    }
    return systems;
  }

  int prefetch() {
    return intOrDefault("prefetch", 0);
  }

  int window() {
    return intOrDefault("window", 2000);
  }

  int batchSize() {
    return intOrDefault("batch-size", 1000);
  }

  /** Jobs of the warm-up run: {@code --warmup-jobs}, else {@code min(cap, jobs)}. */
  int warmupJobs(int jobs, int cap) {
    return intOrDefault("warmup-jobs", Math.min(cap, jobs));
  }

  /**
   * How many times the warm-up run is made: {@code --warmup-rounds}, else the workload's default.
   */
  int warmupRounds(int workloadDefault) {
    return intOrDefault("warmup-rounds", workloadDefault);
  }

  int timeoutSeconds() {
    return intOrDefault("timeout-s", 120);
  }

  int redissonCap() {
    return intOrDefault("redisson-cap", 1_000_000);
  }

  int burstJobs() {
    return intOrDefault("burst-jobs", 100_000);
  }

  int seconds() {
    return intOrDefault("seconds", 30);
  }

  long seed() {
    return longOrDefault("seed", 1);
  }

  /** A copy with {@code --jobs} replaced; used for warm-up runs. */
  Options withJobs(int jobs) {
    Map<String, String> copy = new LinkedHashMap<>(values);
    copy.put("jobs", Integer.toString(jobs));
    return new Options(workload, help, copy);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder(workload == null ? "" : workload);
    values.forEach((k, v) -> b.append(" --").append(k).append(' ').append(v));
    return b.toString();
  }

  private int intOrDefault(String name, int dflt) {
    String v = values.get(name);
    return v == null ? dflt : Integer.parseInt(v.replace("_", ""));
  }

  private long longOrDefault(String name, long dflt) {
    String v = values.get(name);
    return v == null ? dflt : Long.parseLong(v.replace("_", ""));
  }

  private int intOption(String name, int dflt, int min, int max) throws UsageException {
    return (int) longOption(name, dflt, min, max);
  }

  private long longOption(String name, long dflt, long min, long max) throws UsageException {
    String v = values.get(name);
    if (v == null) {
      return dflt;
    }
    long n;
    try {
      n = Long.parseLong(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new UsageException("--" + name + " needs a whole number, was '" + v + "'");
    }
    if (n < min || n > max) {
      throw new UsageException(
          "--" + name + " must be between " + min + " and " + max + ", was " + v);
    }
    return n;
  }
}
