package dev.hourglass.bench;

import java.util.List;
import java.util.Map;

/** One benchmark workload; it runs on one system at a time, on a freshly flushed Redis. */
interface Workload {

  static Workload named(String name) {
    return switch (name) {
      case "enqueue" -> new EnqueueWorkload();
      case "e2e" -> new E2eWorkload();
      case "memory" -> new MemoryWorkload();
      case "scale" -> new ScaleWorkload();
      case "idle" -> new IdleWorkload();
      case "http-enqueue" -> new HttpEnqueueWorkload();
      case "forward" -> new ForwardWorkload();
      case "priority" -> new PriorityWorkload();
      case "cost" -> new CostWorkload();
      default -> throw new IllegalArgumentException("unknown workload " + name);
    };
  }

  String name();

  /** Runs the workload on {@code sut} and returns the fields of its RESULT line. */
  Fields run(SystemUnderTest sut, RedisTarget redis, Options options) throws Exception;

  /**
   * The fields of the RATIO line, each named {@code *_x_faster} (hourglass / redisson) or {@code
   * *_x_lower} (redisson / hourglass), so that above 1 always means Hourglass does better.
   */
  Fields ratio(Fields hourglass, Fields redisson);

  /** RATIO lines beyond {@link #ratio}'s, each without its {@code RATIO workload=} head. */
  default List<String> moreRatioLines(Map<String, Fields> results) {
    return List.of();
  }

  /** Releases what the workload started for itself (a server of its own); nothing by default. */
  default void close() {}

  /** The two systems whose RESULT fields {@link #ratio} compares, in its order. */
  default List<String> ratioSystems() {
    return List.of("hourglass", "redisson");
  }

  /**
   * Jobs of an unreported run of this workload, on a scratch queue, before the measured one: it
   * warms the JIT of both clients alike. 0 for none.
   */
  default int warmupJobs(Options options) {
    return 0;
  }

  /** How many times the warm-up run is made, each on a fresh client and a flushed Redis. */
  default int warmupRounds(Options options) {
    return options.warmupRounds(1);
  }

  /**
   * Whether the workload has a baseline: the same Redis work done without any delay queue, run
   * before the systems (with their warm-up rounds) and printed as {@code RESULT
   * system=redis-baseline}.
   */
  default boolean hasBaseline() {
    return false;
  }

  /** Runs the baseline on a flushed Redis, with {@code queue}'s keys; its RESULT fields. */
  default Fields runBaseline(RedisTarget redis, String queue, Options options) throws Exception {
    throw new UnsupportedOperationException(name() + " has no baseline");
  }

  /** Fields a system's RESULT line adds from comparing it with the baseline's; none by default. */
  default Fields versusBaseline(Fields system, Fields baseline) {
    return new Fields();
  }
}
