package dev.hourglass.server;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Finds the live redis-server (or valkey-server) processes that keep their data in one directory
 * (Linux only). Redis rewrites its command line to {@code redis-server 127.0.0.1:port}, so the data
 * directory is not in it; it is the process's working directory ({@code --dir} makes Redis chdir
 * there), and every line of the directory's {@code redis.log} starts with the pid that wrote it.
 * Both are checked.
 */
final class EmbeddedRedisProcesses {
  private static final Pattern LOG_PID = Pattern.compile("(?m)^(\\d+):[CMSX] ");

  private EmbeddedRedisProcesses() {}

  /** Pids of live (not zombie) redis-server processes of {@code dataDir}. */
  static Set<Long> of(Path dataDir) {
    Path dir = realPath(dataDir);
    Set<Long> pids = new TreeSet<>();
    ProcessHandle.allProcesses()
        .filter(p -> isRedis(p) && running(p.pid()))
        .filter(p -> dir.equals(cwd(p.pid()).orElse(null)) || mentions(p, dir))
        .forEach(p -> pids.add(p.pid()));
    for (long pid : pidsInLog(dataDir)) {
      ProcessHandle.of(pid).filter(p -> isRedis(p) && running(pid)).ifPresent(p -> pids.add(pid));
    }
    return pids;
  }

  /**
   * Waits up to {@code timeout} for every redis-server of {@code dataDir} to be gone; returns those
   * left (none when they went in time).
   */
  static Set<Long> awaitNone(Path dataDir, Duration timeout) {
    try {
      await("every redis-server of " + dataDir + " gone")
          .atMost(timeout)
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(50))
          .until(() -> of(dataDir).isEmpty());
      return Set.of();
    } catch (ConditionTimeoutException e) {
      return of(dataDir);
    }
  }

  /** Kills whatever is left: cleanup after a failed test. */
  static void killAll(Path dataDir) {
    of(dataDir).forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
  }

  static Set<Long> pidsInLog(Path dataDir) {
    Set<Long> pids = new TreeSet<>();
    Path log = dataDir.resolve("redis.log");
    if (!Files.isRegularFile(log)) {
      return pids;
    }
    try {
      Matcher m = LOG_PID.matcher(Files.readString(log));
      while (m.find()) {
        pids.add(Long.parseLong(m.group(1)));
      }
    } catch (IOException e) {
      throw new AssertionError("cannot read " + log, e);
    }
    return pids;
  }

  /**
   * A redis-server, or a valkey-server (what --embedded-redis auto runs where it is installed).
   * Debian's are links to redis-check-rdb and valkey-check-rdb, the names the kernel reports.
   */
  private static boolean isRedis(ProcessHandle p) {
    ProcessHandle.Info info = p.info();
    String names = info.command().orElse("") + " " + info.commandLine().orElse("");
    return Stream.of("redis-server", "valkey-server", "redis-check-rdb", "valkey-check-rdb")
        .anyMatch(names::contains);
  }

  private static boolean mentions(ProcessHandle p, Path dir) {
    return p.info().commandLine().orElse("").contains(dir.toString());
  }

  /**
   * Alive and not a zombie: a killed server whose parent died waits to be reaped by init, which in
   * a container may never come, yet it holds no port and no file.
   */
  private static boolean running(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      String state = stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      return !state.equals("Z") && !state.equals("X");
    } catch (IOException | RuntimeException e) {
      return false; // gone
    }
  }

  private static Optional<Path> cwd(long pid) {
    try {
      return Optional.of(Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "cwd")));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static Path realPath(Path dir) {
    try {
      return dir.toRealPath();
    } catch (IOException e) {
      return dir.toAbsolutePath().normalize();
    }
  }
}
