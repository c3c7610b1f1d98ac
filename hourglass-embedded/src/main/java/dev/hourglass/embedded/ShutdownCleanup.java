package dev.hourglass.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Kills every registered process and deletes every registered directory when the JVM exits.
 *
 * <p>The hook is installed on first use. It takes no locks held elsewhere, so it cannot deadlock
 * with a thread that is in the middle of starting or stopping a server when {@link System#exit} is
 * called. Processes registered after the hook has begun are killed on the spot.
 *
 * <p>Threading: all methods are thread-safe.
 */
final class ShutdownCleanup {

  private static final System.Logger LOG = System.getLogger(ShutdownCleanup.class.getName());
  private static final Set<Process> PROCESSES = ConcurrentHashMap.newKeySet();
  private static final Set<Path> DIRECTORIES = ConcurrentHashMap.newKeySet();
  private static volatile boolean shuttingDown;

  static {
    try {
      Runtime.getRuntime()
          .addShutdownHook(new Thread(ShutdownCleanup::run, "hourglass-redis-cleanup"));
    } catch (IllegalStateException e) {
      // First used while the JVM is already exiting (a server stopped from a shutdown hook):
      // nothing registered now may outlive the JVM.
      shuttingDown = true;
    }
  }

  private ShutdownCleanup() {}

  static void register(Process process) {
    PROCESSES.add(process);
    if (shuttingDown) {
      process.destroyForcibly();
    }
  }

  static void unregister(Process process) {
    PROCESSES.remove(process);
  }

  /** Registers a directory to delete recursively at exit. */
  static void registerDirectory(Path directory) {
    DIRECTORIES.add(directory);
  }

  static void unregisterDirectory(Path directory) {
    DIRECTORIES.remove(directory);
  }

  /**
   * Deletes a directory tree; a missing directory is fine.
   *
   * @throws UncheckedIOException if something could not be deleted
   */
  static void deleteRecursively(Path directory) {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + directory, e);
    }
  }

  private static void run() {
    shuttingDown = true;
    List<Process> processes = List.copyOf(PROCESSES);
    for (Process process : processes) {
      process.destroyForcibly();
    }
    for (Process process : processes) {
      try {
        if (!process.waitFor(2, TimeUnit.SECONDS)) {
          LOG.log(Level.WARNING, "Process {0} still alive after SIGKILL", process.pid());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        LOG.log(Level.WARNING, "Interrupted while killing redis processes at exit", e);
        break;
      }
    }
    for (Path directory : List.copyOf(DIRECTORIES)) {
      try {
        deleteRecursively(directory);
      } catch (UncheckedIOException e) {
        LOG.log(Level.WARNING, "Cannot delete " + directory + " at exit", e);
      }
    }
  }
}
