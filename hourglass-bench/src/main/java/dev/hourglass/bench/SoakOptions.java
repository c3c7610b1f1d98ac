package dev.hourglass.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The soak's command line: {@code --name value} pairs checked against {@link Soak#USAGE}. */
final class SoakOptions {
  private static final List<String> NAMES =
      List.of("minutes", "seed", "topology", "rate", "consumers", "drain-timeout-s", "aof", "dir");

  private SoakOptions() {}

  /**
   * The options by name ({@code help} alone when asked for).
   *
   * @throws IllegalArgumentException for an unknown option, a missing value, a missing required
   *     option or a value out of range
   */
  static Map<String, String> parse(String... args) {
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--help") || args[i].equals("-h")) {
        return Map.of("help", "");
      }
      if (!args[i].startsWith("--") || !NAMES.contains(args[i].substring(2))) {
        throw new IllegalArgumentException("unknown option " + args[i]);
      }
      if (i + 1 == args.length) {
        throw new IllegalArgumentException(args[i] + " needs a value");
      }
      o.put(args[i].substring(2), args[++i]);
    }
    for (String required : List.of("minutes", "seed")) {
      if (!o.containsKey(required)) {
        throw new IllegalArgumentException("--" + required + " is required");
      }
    }
    String topology = o.getOrDefault("topology", "standalone");
    if (!SoakTopology.NAMES.contains(topology)) {
      throw new IllegalArgumentException(
          "--topology " + topology + ": one of " + String.join(", ", SoakTopology.NAMES));
    }
    if (!List.of("always", "off").contains(o.getOrDefault("aof", "always"))) {
      throw new IllegalArgumentException("--aof takes always or off");
    }
    try {
      if (!(Double.parseDouble(o.get("minutes")) > 0)) {
        throw new IllegalArgumentException("--minutes must be above 0");
      }
      Long.parseLong(o.get("seed"));
      if (!(Double.parseDouble(o.getOrDefault("rate", "40")) > 0)) {
        throw new IllegalArgumentException("--rate must be above 0");
      }
      if (Integer.parseInt(o.getOrDefault("consumers", "3")) < 2) {
        throw new IllegalArgumentException("--consumers must be at least 2");
      }
      if (Long.parseLong(o.getOrDefault("drain-timeout-s", "120")) < 1) {
        throw new IllegalArgumentException("--drain-timeout-s must be at least 1");
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a number: " + e.getMessage());
    }
    return o;
  }
}
