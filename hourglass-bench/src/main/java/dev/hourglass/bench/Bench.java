package dev.hourglass.bench;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Entry point of the harness: {@code hourglass-bench/run WORKLOAD [options]} (see {@link
 * Options#USAGE}). Runs the workload on each system in turn against the same Redis, flushing it
 * before each, and prints a RESULT line per system and a RATIO line.
 */
public final class Bench {
  static final String QUEUE = "bench";
  static final String WARMUP_QUEUE = "warmup";

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
      System.out.print(Options.USAGE);
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

  /** Runs the workload on every system asked for; returns the RESULT fields by system. */
  Map<String, Fields> run() throws Exception {
    Workload workload = Workload.named(options.workload());
    List<String> systems = options.systems();
    Map<String, Fields> results = new LinkedHashMap<>();
    try (RedisTarget redis = RedisTarget.open(options.redis())) {
      out.println("# hourglass-bench " + options);
      out.println(
          "# "
              + redis.describe()
              + "; java "
              + Runtime.version()
              + "; "
              + Runtime.getRuntime().availableProcessors()
              + " cores");
      for (String system : systems) {
        int warmup = workload.warmupJobs(options);
        int rounds = workload.warmupRounds(options);
        for (int round = 1; warmup > 0 && round <= rounds; round++) {
          out.println(
              "# "
                  + system
                  + ": warm-up run "
                  + round
                  + " of "
                  + rounds
                  + ", "
                  + warmup
                  + " jobs, not reported");
          redis.flushAll();
          try (SystemUnderTest sut =
              SystemUnderTest.open(system, redis.uri(), WARMUP_QUEUE, options)) {
            // Printed, not reported: how the rates settle from round to round shows when the JIT
            // is done, so a reader can tell whether the measured run still paid for it.
            out.println(
                "# "
                    + system
                    + ": warm-up run "
                    + round
                    + ": "
                    + workload.run(sut, redis, options.withJobs(warmup)));
          }
        }
        redis.flushAll();
        // A marker a profiler can wait for: what follows is the measured run.
        out.println("# " + system + ": measured run, " + workload.name());
        out.flush();
        Fields result;
        try (SystemUnderTest sut = SystemUnderTest.open(system, redis.uri(), QUEUE, options)) {
          result = workload.run(sut, redis, options);
        }
        results.put(system, result);
        out.println("RESULT system=" + system + " workload=" + workload.name() + " " + result);
        out.flush();
      }
      redis.flushAll();
    }
    Fields hourglass = results.get("hourglass");
    Fields redisson = results.get("redisson");
    out.println(
        "RATIO workload="
            + workload.name()
            + " "
            + (hourglass != null && redisson != null
                ? workload.ratio(hourglass, redisson)
                : "note=needs_both_systems"));
    return results;
  }
}
