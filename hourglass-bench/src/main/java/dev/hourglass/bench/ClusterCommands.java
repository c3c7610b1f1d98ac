package dev.hourglass.bench;

import dev.hourglass.embedded.RedisServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What a cluster run asked of Redis, printed as {@code #} lines. */
final class ClusterCommands {
  private ClusterCommands() {}

  /** {@code scripts}, the client's script calls of the run by script, per 1000 jobs. */
  static void printScripts(Map<String, Long> scripts, int partitions, int jobs) {
    StringBuilder s = new StringBuilder("# P=" + partitions + " script calls per 1000 jobs:");
    scripts.forEach(
        (script, n) -> s.append(String.format(Locale.ROOT, " %s=%.1f", script, n * 1000.0 / jobs)));
    System.out.println(s);
  }

  /**
   * Per master, the six costliest commands of the run (a script's time includes its commands'):
   * calls and Redis microseconds per job.
   */
  static void print(List<RedisServer> masters, int partitions, int jobs) {
    for (int m = 0; m < masters.size(); m++) {
      List<String[]> stats = new ArrayList<>();
      for (String line : masters.get(m).command("INFO", "commandstats").split("\r?\n")) {
        if (line.startsWith("cmdstat_") && !line.startsWith("cmdstat_info:")) {
          String name = line.substring("cmdstat_".length(), line.indexOf(':'));
          stats.add(new String[] {name, field(line, "calls="), field(line, "usec=")});
        }
      }
      stats.sort((a, b) -> Long.compare(Long.parseLong(b[2]), Long.parseLong(a[2])));
      StringBuilder s = new StringBuilder("# P=" + partitions + " master" + m + " per job:");
      for (String[] st : stats.subList(0, Math.min(6, stats.size()))) {
        s.append(
            String.format(
                Locale.ROOT,
                " %s=%.3f calls/%.2f us",
                st[0],
                Long.parseLong(st[1]) / (double) jobs,
                Long.parseLong(st[2]) / (double) jobs));
      }
      System.out.println(s);
    }
  }

  private static String field(String line, String name) {
    int from = line.indexOf(name) + name.length();
    int to = line.indexOf(',', from);
    return line.substring(from, to < 0 ? line.length() : to);
  }
}
