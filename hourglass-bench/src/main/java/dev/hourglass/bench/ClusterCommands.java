package dev.hourglass.bench;

import dev.hourglass.embedded.RedisServer;
import dev.hourglass.spi.ScriptListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a cluster run asked of Redis, printed as {@code #} lines: per master its costliest commands
 * (INFO commandstats) and, counted while {@link #counting} is on, the client's script calls by
 * script. Thread-safe: the client's threads report script calls.
 */
final class ClusterCommands implements ScriptListener {
  private final Map<String, LongAdder> scripts = new ConcurrentHashMap<>();
  private volatile boolean counting;

  /** Counts script calls from now until {@code on} is false. */
  void counting(boolean on) {
    counting = on;
  }

  @Override
  public void scriptCalled(String script, java.time.Duration elapsed, Throwable failure) {
    if (counting) {
      scripts.computeIfAbsent(script, k -> new LongAdder()).increment();
    }
  }

  /** The counted script calls per 1000 jobs by script, on whichever masters they ran. */
  void printScripts(int partitions, int jobs) {
    Map<String, Long> sorted = new TreeMap<>();
    scripts.forEach((script, n) -> sorted.put(script, n.sum()));
    StringBuilder s = new StringBuilder("# P=" + partitions + " script calls per 1000 jobs:");
    sorted.forEach(
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
