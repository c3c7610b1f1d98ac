package dev.hourglass.bench;

import dev.hourglass.embedded.RedisServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code redis-server} run under {@code valgrind --tool=callgrind}, which counts the instructions
 * it executes: unlike seconds, the count repeats from run to run on a busy machine. {@link #zero}
 * starts a count and {@link #instructions} ends it (both through {@code callgrind_control}); Redis
 * runs about fifty times slower meanwhile, so a workload measured here must be small.
 */
final class CallgrindRedis implements AutoCloseable {
  private static final Pattern SUMMARY = Pattern.compile("(?m)^summary:\\s*(\\d+)\\s*$");
  private static final Duration CONTROL_TIMEOUT = Duration.ofMinutes(2);

  private final Path outDir;
  private final RedisServer server;
  private int dumps;

  private CallgrindRedis(Path outDir, RedisServer server) {
    this.outDir = outDir;
    this.server = server;
  }

  /** Starts the server; fails with a clear message when valgrind is not installed. */
  static CallgrindRedis start() throws IOException {
    requireTool("valgrind");
    requireTool("callgrind_control");
    Path outDir = Files.createTempDirectory("hourglass-callgrind-");
    RedisServer server =
        RedisServer.builder()
            .launcher(
                "valgrind",
                "--tool=callgrind",
                "--callgrind-out-file=" + outDir.resolve("callgrind.out"))
            .startupTimeout(Duration.ofMinutes(2))
            .build();
    server.start();
    return new CallgrindRedis(outDir, server);
  }

  String uri() {
    return server.uri();
  }

  /** Forgets what was counted so far: the next {@link #instructions} counts from here. */
  void zero() throws IOException, InterruptedException {
    control("-z");
  }

  /** Instructions Redis executed since {@link #zero}. */
  long instructions() throws IOException, InterruptedException {
    control("-d");
    dumps++;
    Path dump = outDir.resolve("callgrind.out." + dumps);
    long deadline = System.nanoTime() + CONTROL_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(dump)) {
        Matcher m = SUMMARY.matcher(Files.readString(dump));
        if (m.find() && Files.readString(dump).contains("\ntotals:")) {
          Files.delete(dump); // several MB each; only the total is kept
          return Long.parseLong(m.group(1));
        }
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("callgrind wrote no complete " + dump);
  }

  private void control(String option) throws IOException, InterruptedException {
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
            + " is not on the PATH; the cost workload counts Redis's instructions with valgrind"
            + " (Debian/Ubuntu: apt-get install valgrind)");
  }

  @Override
  public void close() {
    try {
      server.close();
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
