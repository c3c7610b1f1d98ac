package dev.hourglass.bench;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Entry point of the harness: {@code hourglass-bench/run WORKLOAD [options]} (see {@link
 * Usage#TEXT}). Runs the workload's baseline, if it has one, and the workload on each system in
 * turn against the same Redis, flushing it before each, and prints a RESULT line for each and a
 * RATIO line.
 */
public final class Bench {
  static final String QUEUE = "bench";
  static final String WARMUP_QUEUE = "warmup";

  /** The name of a workload's baseline in RESULT lines. */
  static final String BASELINE = "redis-baseline";

  private final Options options;
  private final PrintStream out;

  Bench(Options options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  public static void main(String[] args) {
    Options options;
    try {
      options = Options.parse(args);
    } catch (Options.UsageException e) {
      System.err.println("hourglass-bench: " + e.getMessage());
      System.err.println("Try 'hourglass-bench/run --help'.");
      System.exit(2);
      return;
    }
    if (options.help()) {
      System.out.print(Usage.TEXT);
      System.exit(0);
    }
    int code = 0;
    try {
      new Bench(options, System.out).run();
    } catch (Exception e) {
      System.out.flush();
      System.err.println("hourglass-bench: " + options.workload() + " failed");
      e.printStackTrace();
      code = 1;
    }
    System.out.flush();
    System.exit(code); // client threads (Netty, Redisson timers) must not hold the JVM
  }

  /**
   * Runs the workload's baseline, if it has one, then the workload on every system asked for;
   * returns the RESULT fields by system, the baseline's under {@value #BASELINE}.
   */
  Map<String, Fields> run() throws Exception {
    Workload workload = Workload.named(options.workload());
    List<String> systems = options.systems();
    Map<String, Fields> results = new LinkedHashMap<>();
    if (options.redisServer() != null) {
      // Every redis-server this JVM starts (hourglass-embedded reads it) is this one.
      System.setProperty("hourglass.redis.server", options.redisServer());
    }
    try (RedisTarget redis = RedisTarget.open(options.redis());
        AutoCloseable closeWorkload = workload::close) {
      out.println("# hourglass-bench " + options);
      out.println(
          "# "
              + redis.describe()
              + "; java "
              + Runtime.version()
              + "; "
              + Runtime.getRuntime().availableProcessors()
              + " cores");
      Fields baseline = null;
      if (workload.hasBaseline()) {
        baseline = measure(BASELINE, workload, redis, (o, q) -> workload.runBaseline(redis, q, o));
        results.put(BASELINE, baseline);
        print(BASELINE, workload, baseline);
        redis.flushAll();
        // The systems' fills, like the baseline's, start on a Redis that holds no freed pages.
        out.println("# MEMORY PURGE after the baseline: " + redis.purgeMemory());
      }
      for (String system : systems) {
        Fields result;
        try {
          result =
              measure(
                  system,
                  workload,
                  redis,
                  (o, q) -> {
                    try (SystemUnderTest sut = SystemUnderTest.open(system, redis.uri(), q, o)) {
                      return workload.run(sut, redis, o);
                    }
                  });
          if (baseline != null) {
            result.putAll("", workload.versusBaseline(result, baseline));
          }
        } catch (Exception e) {
          // A system that cannot run the workload (Redisson's default pools with 1,000 delayed
          // queues, say) is a result too; the other systems still run.
          result = failed(e);
          e.printStackTrace();
        }
        results.put(system, result);
        print(system, workload, result);
        redis.flushAll();
      }
    }
    Fields hourglass = results.get(workload.ratioSystems().get(0));
    Fields redisson = results.get(workload.ratioSystems().get(1));
    String ratio;
    if (hourglass == null || redisson == null) {
      ratio = "note=needs_both_systems";
    } else if (hourglass.has(FAILED) || redisson.has(FAILED)) {
      ratio = "note=a_system_failed";
    } else {
      ratio = workload.ratio(hourglass, redisson).toString();
    }
    out.println("RATIO workload=" + workload.name() + " " + ratio);
    for (String line : workload.moreRatioLines(results)) {
      out.println("RATIO workload=" + workload.name() + " " + line);
    }
    return results;
  }

  /** The RESULT field of a system that failed: its exception, on one line without spaces. */
  static final String FAILED = "failed";

  private static Fields failed(Exception e) {
    String reason = e.getClass().getSimpleName() + ":" + e.getMessage();
    return new Fields().put(FAILED, reason.replaceAll("\\s+", "_"));
  }

  /** One run of a workload on a flushed Redis, with these options and this queue. */
  private interface OneRun {
    Fields run(Options options, String queue) throws Exception;
  }

  /**
   * The workload's warm-up rounds, each printed, then the measured run, each on a flushed Redis;
   * returns the measured run's fields.
   */
  private Fields measure(String name, Workload workload, RedisTarget redis, OneRun run)
      throws Exception {
    int warmup = workload.warmupJobs(options);
    int rounds = workload.warmupRounds(options);
    for (int round = 1; warmup > 0 && round <= rounds; round++) {
      out.println(
          "# "
              + name
              + ": warm-up run "
              + round
              + " of "
              + rounds
              + ", "
              + warmup
              + " jobs, not reported");
      redis.flushAll();
      // Printed, not reported: how the rates settle from round to round shows when the JIT
      // is done, so a reader can tell whether the measured run still paid for it.
      out.println(
          "# "
              + name
              + ": warm-up run "
              + round
              + ": "
              + run.run(options.forWarmup(warmup), WARMUP_QUEUE));
    }
    redis.flushAll();
    // A marker a profiler can wait for: what follows is the measured run.
    out.println("# " + name + ": measured run, " + workload.name());
    out.flush();
    return run.run(options, QUEUE);
  }

  private void print(String name, Workload workload, Fields result) {
    out.println("RESULT system=" + name + " workload=" + workload.name() + " " + result);
    out.flush();
  }
}
