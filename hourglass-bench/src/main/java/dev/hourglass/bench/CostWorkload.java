package dev.hourglass.bench;

import dev.hourglass.embedded.RedisServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * What one job's life costs, enqueue to ack, measured where it is made: the e2e workload (jobs due
 * over a delay range, consumed and acked) on each system in turn against the same Redis, and per
 * system Redis's CPU (INFO cpu), its calls and commands (INFO commandstats), this JVM's CPU and
 * allocation (the client: producer and consumers, with the harness's own small share), each per
 * job; then the same workload, smaller, against a second Redis run under callgrind, which counts
 * the instructions Redis executed per job (counts repeat where seconds do not).
 *
 * <p>Calls are what clients sent: script calls, plus commands no script may run (blocking pops,
 * subscriptions: the noscript flag of COMMAND INFO); for a system that ran no script, every
 * command. Commands are every command Redis ran, those inside scripts included and the script calls
 * themselves not. The harness's own INFO calls are left out.
 */
final class CostWorkload implements Workload {
  private static final int DEFAULT_JOBS = 100_000;
  static final int DEFAULT_CALLGRIND_JOBS = 10_000;
  private static final int CALLGRIND_WARMUP_JOBS = 1_000;
  private static final Set<String> SCRIPT_CALLS =
      Set.of("eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro");
  private static final Set<String> HARNESS = Set.of("info", "config|resetstat", "flushall");

  private CallgrindRedis callgrind; // started by the first measured run
  private RedisServer callgrindServer;
  private RedisTarget callgrindTarget;

  @Override
  public String name() {
    return "cost";
  }

  @Override
  public int warmupJobs(Options o) {
    return o.warmupJobs(o.jobs(DEFAULT_JOBS), 100_000);
  }

  @Override
  public List<String> ratioSystems() {
    return List.of("hourglass", "redisson");
  }

  /** Measured runs per system by default: single runs on a shared machine vary by a third. */
  static final int DEFAULT_ROUNDS = 3;

  /** The per-job costs a RESULT line gives as the median of the rounds. */
  private static final List<String> MEDIANS =
      List.of(
          "redis_cpu_us_per_job",
          "redis_calls_per_job",
          "redis_commands_per_job",
          "redis_script_calls_per_job",
          "client_cpu_us_per_job",
          "client_jit_us_per_job",
          "client_alloc_kb_per_job");

  @Override
  public Fields run(SystemUnderTest sut, RedisTarget redis, Options o) throws Exception {
    int jobs = o.jobs(DEFAULT_JOBS);
    int rounds = o.warmup() ? 1 : o.rounds(DEFAULT_ROUNDS);
    List<Fields> runs = new ArrayList<>();
    for (int i = 0; i < rounds; i++) {
      runs.add(measure(sut, redis, o, jobs));
    }
    Fields f = new Fields().putAll("", runs.get(runs.size() - 1));
    if (rounds > 1) {
      f.put("rounds", rounds);
      for (String key : MEDIANS) {
        double[] values = runs.stream().mapToDouble(r -> r.num(key)).sorted().toArray();
        f.put(key, values[values.length / 2]);
        StringJoiner each = new StringJoiner("/");
        runs.forEach(r -> each.add(String.format(Locale.ROOT, "%.2f", r.num(key))));
        f.put(key.replace("_per_job", "_rounds"), each.toString());
      }
    }
    int cgJobs = o.callgrindJobs(DEFAULT_CALLGRIND_JOBS);
    if (!o.warmup() && cgJobs > 0) {
      f.putAll("callgrind_", countInstructions(sut.name(), o, cgJobs));
    }
    return f;
  }

  /** One e2e burst and what it cost Redis and this JVM, per job. */
  private static Fields measure(SystemUnderTest sut, RedisTarget redis, Options o, int jobs)
      throws Exception {
    Map<String, Long> commandsBefore = redis.commandCalls();
    Map<String, Long> scriptsBefore = sut.scriptCalls();
    double redisBefore = redis.cpuSeconds();
    JvmCost client = JvmCost.now();
    Burst burst =
        new Burst(
            sut, jobs, o.delays(1000, 3000), o.consumers(4), o.batchSize(), o.timeoutSeconds());
    Fields e2e = burst.run(o.payloads(), 0);
    JvmCost spent = client.since();
    double redisUs = (redis.cpuSeconds() - redisBefore) * 1e6;
    Counts counts = Counts.of(delta(commandsBefore, redis.commandCalls()), redis);
    Map<String, Long> scripts = delta(scriptsBefore, sut.scriptCalls());
    StringJoiner byScript = new StringJoiner(",");
    scripts.forEach(
        (script, n) ->
            byScript.add(script + ":" + String.format(Locale.ROOT, "%.1f", n * 1000.0 / jobs)));
    Fields f =
        new Fields()
            .put("jobs", jobs)
            .put("redis_cpu_us_per_job", redisUs / jobs)
            .put("redis_calls_per_job", counts.calls / (double) jobs)
            .put("redis_commands_per_job", counts.commands / (double) jobs)
            .put("redis_script_calls_per_job", counts.scriptCalls / (double) jobs)
            .put("client_cpu_us_per_job", spent.cpuMicros() / jobs)
            .put("client_jit_us_per_job", spent.jitMicros() / jobs)
            .put("client_alloc_kb_per_job", spent.allocatedKb() / jobs)
            .put("lateness_p50_ms", (long) e2e.num("lateness_p50_ms"))
            .put("lateness_p99_ms", (long) e2e.num("lateness_p99_ms"))
            .put("lateness_max_ms", (long) e2e.num("lateness_max_ms"))
            .rate("e2e_jobs_per_s", e2e.num("e2e_jobs_per_s"))
            .put("delivered", (long) e2e.num("delivered"))
            .put("timed_out", e2e.num("delivered") < jobs)
            .putAll("", sut.consumerFields());
    if (!scripts.isEmpty()) {
      f.put("script_calls_per_1000_jobs", byScript.toString());
    }
    return f;
  }

  /** The same workload on a fresh client against the Redis under callgrind. */
  private Fields countInstructions(String system, Options o, int jobs) throws Exception {
    if (callgrind == null) {
      callgrind = CallgrindRedis.create();
      callgrindServer = callgrind.startServer();
      callgrindTarget = RedisTarget.open(callgrindServer.uri());
    }
    callgrindTarget.flushAll();
    // A short burst first, not counted: the system's scripts compiled, Redis's structures made, as
    // in a service that has been running.
    try (SystemUnderTest warm =
        SystemUnderTest.open(system, callgrindServer.uri(), Bench.WARMUP_QUEUE, o)) {
      measure(warm, callgrindTarget, o, Math.min(CALLGRIND_WARMUP_JOBS, jobs));
    }
    try (SystemUnderTest sut =
        SystemUnderTest.open(system, callgrindServer.uri(), Bench.QUEUE, o)) {
      callgrind.zero(callgrindServer);
      Fields f = measure(sut, callgrindTarget, o, jobs);
      long instructions = callgrind.instructions(callgrindServer);
      return new Fields()
          .rate("redis_instructions_per_job", instructions / (double) jobs)
          .put("jobs", jobs)
          .put("redis_calls_per_job", f.num("redis_calls_per_job"))
          .put("redis_commands_per_job", f.num("redis_commands_per_job"))
          .put("timed_out", f.num("delivered") < jobs)
          .putAll("", f.only("script_calls_per_1000_jobs"));
    }
  }

  /** What {@code after} counts beyond {@code before}, by name; names that did not grow left out. */
  static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> d = new TreeMap<>();
    after.forEach((cmd, n) -> d.put(cmd, n - before.getOrDefault(cmd, 0L)));
    d.values().removeIf(n -> n <= 0);
    return d;
  }

  /** Calls and commands of a run, from the commandstats it added; see the class comment. */
  private record Counts(long calls, long commands, long scriptCalls) {
    static Counts of(Map<String, Long> delta, RedisTarget redis) {
      long calls = 0;
      long commands = 0;
      long scriptCalls = 0;
      Set<String> noscript = redis.noscriptCommands(delta.keySet());
      for (Map.Entry<String, Long> e : delta.entrySet()) {
        String cmd = e.getKey();
        long n = e.getValue();
        if (HARNESS.contains(cmd)) {
          continue;
        }
        if (SCRIPT_CALLS.contains(cmd)) {
          scriptCalls += n;
          calls += n;
        } else {
          commands += n;
          if (noscript.contains(cmd)) {
            calls += n;
          }
        }
      }
      return new Counts(scriptCalls == 0 ? commands : calls, commands, scriptCalls);
    }
  }

  @Override
  public Fields ratio(Fields h, Fields r) {
    Fields f = new Fields();
    f.ratio("redis_cpu_x_lower", r.num("redis_cpu_us_per_job"), h.num("redis_cpu_us_per_job"));
    f.ratio("client_cpu_x_lower", r.num("client_cpu_us_per_job"), h.num("client_cpu_us_per_job"));
    if (h.has("callgrind_redis_instructions_per_job")
        && r.has("callgrind_redis_instructions_per_job")) {
      f.ratio(
          "redis_instructions_x_lower",
          r.num("callgrind_redis_instructions_per_job"),
          h.num("callgrind_redis_instructions_per_job"));
    }
    return f;
  }

  /**
   * A second RATIO line, {@code versus=redis-raw}: Hourglass over the raw baseline, so that 1.0
   * means Hourglass costs Redis what the bare commands cost (its target is at most 1.2).
   */
  @Override
  public List<String> moreRatioLines(Map<String, Fields> results) {
    Fields h = results.get("hourglass");
    Fields raw = results.get(RawRedisSystem.NAME);
    List<String> lines = new ArrayList<>();
    if (h == null || raw == null || h.has(Bench.FAILED) || raw.has(Bench.FAILED)) {
      return lines;
    }
    Fields f = new Fields().put("versus", RawRedisSystem.NAME);
    f.ratio("redis_cpu_x_raw", h.num("redis_cpu_us_per_job"), raw.num("redis_cpu_us_per_job"));
    if (h.has("callgrind_redis_instructions_per_job")
        && raw.has("callgrind_redis_instructions_per_job")) {
      f.ratio(
          "redis_instructions_x_raw",
          h.num("callgrind_redis_instructions_per_job"),
          raw.num("callgrind_redis_instructions_per_job"));
    }
    f.ratio("client_cpu_x_raw", h.num("client_cpu_us_per_job"), raw.num("client_cpu_us_per_job"));
    lines.add(f.toString());
    return lines;
  }

  @Override
  public void close() {
    try {
      if (callgrindTarget != null) {
        callgrindTarget.close();
      }
    } finally {
      if (callgrind != null) {
        callgrind.close();
      }
    }
  }
}
