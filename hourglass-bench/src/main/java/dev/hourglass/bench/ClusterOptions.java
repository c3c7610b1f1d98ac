package dev.hourglass.bench;

import java.util.Locale;

/**
 * The cluster workload's command line.
 *
 * @param jobs jobs per run
 * @param maxDelayMs the jobs fall due over [0, maxDelayMs)
 * @param rounds measured rounds, each a run at P = 3 then one at P = 1
 * @param colocate whether the P = 3 partitions are moved onto one master first
 * @param callgrind whether the masters run under callgrind, which counts their instructions
 * @param payloadBytes each job's payload size ({@code x} repeated)
 */
record ClusterOptions(
    int jobs, int maxDelayMs, int rounds, boolean colocate, boolean callgrind, int payloadBytes) {
  static final int DEFAULT_JOBS = 50_000;

  /** Under callgrind Redis runs about fifty times slower. */
  static final int DEFAULT_CALLGRIND_JOBS = 10_000;

  static final String USAGE =
      "usage: hourglass-bench/run cluster [--jobs N] [--max-delay-ms D] [--rounds R]"
          + " [--colocate] [--callgrind] [--payload-bytes B] [--systems hourglass]";

  /**
   * Parses the options.
   *
   * @throws IllegalArgumentException for an unknown option, a missing value or one out of range
   */
  static ClusterOptions parse(String... args) {
    Integer jobs = null;
    int maxDelayMs = 2000;
    int rounds = 5;
    boolean colocate = false;
    boolean callgrind = false;
    int payloadBytes = 1;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--jobs" -> jobs = positive(args, ++i);
        case "--max-delay-ms" -> maxDelayMs = positive(args, ++i);
        case "--rounds" -> rounds = positive(args, ++i);
        case "--colocate" -> colocate = true;
        case "--callgrind" -> callgrind = true;
        case "--payload-bytes" -> payloadBytes = positive(args, ++i);
        case "--systems" -> {
          if (!value(args, ++i).equals("hourglass")) {
            throw new IllegalArgumentException("the cluster workload runs on hourglass only");
          }
        }
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (jobs == null) {
      jobs = callgrind ? DEFAULT_CALLGRIND_JOBS : DEFAULT_JOBS;
    }
    return new ClusterOptions(jobs, maxDelayMs, rounds, colocate, callgrind, payloadBytes);
  }

  /** Each job's payload: {@link #payloadBytes} times {@code x}. */
  byte[] payload() {
    return "x".repeat(payloadBytes).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }

  /** The options as the header line shows them. */
  String describe() {
    return String.format(
        Locale.ROOT,
        "--jobs %d --max-delay-ms %d --rounds %d%s%s%s",
        jobs,
        maxDelayMs,
        rounds,
        colocate ? " --colocate" : "",
        callgrind ? " --callgrind" : "",
        payloadBytes == 1 ? "" : " --payload-bytes " + payloadBytes);
  }

  private static String value(String[] args, int i) {
    if (i >= args.length) {
      throw new IllegalArgumentException(args[i - 1] + " needs a value");
    }
    return args[i];
  }

  private static int positive(String[] args, int i) {
    String value = value(args, i);
    try {
      int v = Integer.parseInt(value);
      if (v >= 1) {
        return v;
      }
    } catch (NumberFormatException e) {
      // falls through to the message below
    }
    throw new IllegalArgumentException(
        args[i - 1] + " must be a whole number of at least 1, was " + value);
  }
}
