package dev.hourglass.bench;

import dev.hourglass.embedded.RedisServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts the instructions {@code redis-server} processes execute, each run under {@code valgrind
 * --tool=callgrind}: unlike seconds, the count repeats from run to run on a busy machine. A server
 * is started through this class's {@link #launcher()} (with {@link #STARTUP_TIMEOUT}), by {@link
 * #startServer()} for one standalone server or by a {@code RedisCluster} builder for a cluster's
 * nodes; {@link #zero} starts a server's count and {@link #instructions} ends it (both through
 * {@code callgrind_control}). Redis runs about fifty times slower meanwhile, so a workload measured
 * here must be small. Not thread-safe.
 */
final class CallgrindRedis implements AutoCloseable {
  /** How long a server under valgrind may take to answer PING after its start. */
  static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(2);

  private static final Pattern SUMMARY = Pattern.compile("(?m)^summary:\\s*(\\d+)\\s*$");
  private static final Duration CONTROL_TIMEOUT = Duration.ofMinutes(2);

  private final Path outDir;
  private final Map<Long, Integer> dumps = new HashMap<>(); // per process id
  private final List<RedisServer> started = new ArrayList<>(); // by startServer, closed by close

  private CallgrindRedis(Path outDir) {
    this.outDir = outDir;
  }

  /** A counter with a fresh directory for the counts; fails clearly when valgrind is missing. */
  static CallgrindRedis create() throws IOException {
    requireTool("valgrind");
    requireTool("callgrind_control");
    return new CallgrindRedis(Files.createTempDirectory("hourglass-callgrind-"));
  }

  /** The words that run a server under callgrind, each process writing its own counts. */
  String[] launcher() {
    return new String[] {
      "valgrind", "--tool=callgrind", "--callgrind-out-file=" + outDir.resolve("callgrind.out.%p")
    };
  }

  /** Starts one standalone server under callgrind; {@link #close} stops it. */
  RedisServer startServer() {
    RedisServer server =
        RedisServer.builder().launcher(launcher()).startupTimeout(STARTUP_TIMEOUT).build();
    started.add(server);
    server.start();
    return server;
  }

  /**
   * Forgets what {@code server} executed so far: the next {@link #instructions} counts from here.
   */
  void zero(RedisServer server) throws IOException, InterruptedException {
    control("-z", server);
  }

  /** Instructions {@code server} executed since its {@link #zero}. */
  long instructions(RedisServer server) throws IOException, InterruptedException {
    control("-d", server);
    long pid = server.pid();
    int dump = dumps.merge(pid, 1, Integer::sum);
    Path file = outDir.resolve("callgrind.out." + pid + "." + dump);
    long deadline = System.nanoTime() + CONTROL_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(file)) {
        String text = Files.readString(file);
        Matcher m = SUMMARY.matcher(text);
        if (m.find() && text.contains("\ntotals:")) {
          Files.delete(file); // several MB each; only the total is kept
          return Long.parseLong(m.group(1));
        }
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("callgrind wrote no complete " + file);
  }

  private static void control(String option, RedisServer server)
      throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder("callgrind_control", option, Long.toString(server.pid()))
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(CONTROL_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IllegalStateException("callgrind_control " + option + " failed: " + output);
    }
  }

  private static void requireTool(String name) throws IOException {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
        return;
      }
    }
    throw new IOException(
        name
            + " is not on the PATH; Redis's instructions are counted with valgrind"
            + " (Debian/Ubuntu: apt-get install valgrind)");
  }

  /**
   * Stops the servers {@link #startServer} started and deletes the counts; close a cluster run
   * through {@link #launcher} first, since each process writes its last counts as it exits.
   */
  @Override
  public void close() {
    try {
      started.forEach(RedisServer::close);
    } finally {
      try (var files = Files.list(outDir)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          Files.deleteIfExists(f);
        }
        Files.deleteIfExists(outDir);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
