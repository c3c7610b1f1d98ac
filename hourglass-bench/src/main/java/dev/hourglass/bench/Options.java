package dev.hourglass.bench;

import dev.hourglass.forward.ForwarderOptions;
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
  static final List<String> EXTRA_SYSTEMS = List.of("hourglass-http", RawRedisSystem.NAME);

  /** The cost workload's systems unless --systems says otherwise: the two, and the floor. */
  static final List<String> COST_SYSTEMS = List.of("hourglass", "redisson", RawRedisSystem.NAME);

  static final List<String> WORKLOADS =
      List.of(
          "enqueue",
          "e2e",
          "memory",
          "scale",
          "idle",
          "http-enqueue",
          "forward",
          "cost",
          "priority");

  /** The workloads only Hourglass can run (a forwarder, priorities). */
  static final List<String> HOURGLASS_ONLY = List.of("forward", "priority");

  /** The brokers of the forward workload. */
  static final List<String> BROKERS = List.of("amqp", "kafka");

  /** The systems of http-enqueue unless --systems says otherwise: the server, then the library. */
  static final List<String> HTTP_ENQUEUE_SYSTEMS = List.of("hourglass-http", "hourglass");

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
          "prefetch",
          "queues",
          "connections",
          "broker",
          "concurrency",
          "callgrind-jobs",
          "rounds",
          "redis-server",
          "payload",
          "compress-above",
          "partitions",
          "backlog");

  private final String workload;
  private final boolean help;
  private final Map<String, String> values;
  private final boolean warmup;

  private Options(String workload, boolean help, Map<String, String> values, boolean warmup) {
    this.workload = workload;
    this.help = help;
    this.values = values;
    this.warmup = warmup;
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
    Options o = new Options(workload, help, values, false);
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
    for (String name : List.of("jobs", "window", "batch-size", "seconds", "connections")) {
      intOption(name, 1, 1, Integer.MAX_VALUE);
    }
    intOption("warmup-rounds", 1, 0, 100);
    intOption("rounds", 1, 1, 50);
    for (String name :
        List.of("warmup-jobs", "redisson-cap", "burst-jobs", "timeout-s", "callgrind-jobs")) {
      intOption(name, 0, 0, Integer.MAX_VALUE);
    }
    intOption("prefetch", 0, 0, 100_000); // WorkerOptions' limit
    intOption("queues", 0, 0, 100_000);
    intOption("consumers", 1, 1, 10_000);
    intOption("concurrency", ForwarderOptions.DEFAULT_CONCURRENCY, 1, 1024);
    intOption("payload-bytes", 120, Payloads.HEADER_BYTES, 1024 * 1024);
    intOption("compress-above", 0, 0, dev.hourglass.QueueSettings.MAX_COMPRESS_ABOVE);
    intOption("partitions", 1, 1, 1024);
    String payload = values.get("payload");
    if (payload != null && !Payloads.KINDS.contains(payload)) {
      throw new UsageException("--payload must be one of " + String.join(", ", Payloads.KINDS));
    }
    longOption("seed", 1, Long.MIN_VALUE, Long.MAX_VALUE);
    long min = longOption("min-delay-ms", 0, 0, Long.MAX_VALUE / 4);
    long max = longOption("max-delay-ms", 0, 0, Long.MAX_VALUE / 4);
    if (values.containsKey("min-delay-ms") && values.containsKey("max-delay-ms") && min > max) {
      throw new UsageException("--min-delay-ms " + min + " is above --max-delay-ms " + max);
    }
    systems();
    String broker = values.get("broker");
    if (broker != null && !BROKERS.contains(broker)) {
      throw new UsageException("--broker must be one of " + String.join(", ", BROKERS));
    }
    if (HOURGLASS_ONLY.contains(workload) && !systems().equals(List.of("hourglass"))) {
      throw new UsageException("the " + workload + " workload runs on --systems hourglass only");
    }
    String server = values.get("redis-server");
    if (server != null && !java.nio.file.Files.isExecutable(java.nio.file.Path.of(server))) {
      throw new UsageException("--redis-server " + server + " is not an executable file");
    }
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

  /** The payloads of {@code --payload}: random ones of {@code --payload-bytes}, or orders. */
  Payloads payloads() {
    return new Payloads(payloadBytes(), seed(), "order".equals(values.get("payload")));
  }

  /** What a RESULT line's {@code payload_bytes} says: the size, or {@code order-json}. */
  String payloadLabel() {
    return "order".equals(values.get("payload")) ? "order-json" : Integer.toString(payloadBytes());
  }

  /** {@code --compress-above}: the Hourglass clients' threshold, null for the library's default. */
  Integer compressAbove() {
    return values.containsKey("compress-above") ? intOrDefault("compress-above", 0) : null;
  }

  /** {@code --partitions}: the Hourglass queue's partitions, null for the library's default. */
  Integer partitions() {
    return values.containsKey("partitions") ? intOrDefault("partitions", 1) : null;
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

  /** The priority workload's ready jobs of priority 0. */
  int backlog(int dflt) {
    return intOrDefault("backlog", dflt);
  }

  int consumers(int dflt) {
    return intOrDefault("consumers", dflt);
  }

  /** The forward workload's broker: amqp (the default) or kafka. */
  String broker() {
    return values.getOrDefault("broker", "amqp");
  }

  /** The forward workload's publishes awaiting the broker's confirm at most. */
  int concurrency() {
    return intOrDefault("concurrency", ForwarderOptions.DEFAULT_CONCURRENCY);
  }

  /** The Redis URL given, or null to start the embedded one. */
  String redis() {
    return values.get("redis");
  }

  List<String> systems() throws UsageException {
    String list = values.get("systems");
    if (list == null) {
      return switch (workload) {
        case "http-enqueue" -> HTTP_ENQUEUE_SYSTEMS;
        case "forward", "priority" -> List.of("hourglass");
        case "cost" -> COST_SYSTEMS;
        default -> SYSTEMS;
      };
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

  /** The Hourglass Worker's prefetch, or null: the library's default. */
  Integer prefetch() {
    return values.containsKey("prefetch") ? intOrDefault("prefetch", 0) : null;
  }

  /** Idle queues besides the consumed one (idle workload). */
  int queues() {
    return intOrDefault("queues", 0);
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
    return seconds(30);
  }

  int seconds(int dflt) {
    return intOrDefault("seconds", dflt);
  }

  /** http-enqueue: wrk's connections, and the library's window in the same run. */
  int connections(int dflt) {
    return intOrDefault("connections", dflt);
  }

  long seed() {
    return longOrDefault("seed", 1);
  }

  /** The options of a warm-up run: {@code --jobs} replaced, and {@link #warmup()} true. */
  Options forWarmup(int jobs) {
    Map<String, String> copy = new LinkedHashMap<>(values);
    copy.put("jobs", Integer.toString(jobs));
    return new Options(workload, help, copy, true);
  }

  /** Whether these are a warm-up run's options, whose figures are not reported. */
  boolean warmup() {
    return warmup;
  }

  /** Measured runs of the cost workload per system: {@code --rounds}, else {@code dflt}. */
  int rounds(int dflt) {
    return intOrDefault("rounds", dflt);
  }

  /** Jobs of the cost workload's run under callgrind; 0 for none. */
  int callgrindJobs(int dflt) {
    return intOrDefault("callgrind-jobs", dflt);
  }

  /** A redis-server executable to start instead of the embedded one, or null. */
  String redisServer() {
    return values.get("redis-server");
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
