package dev.hourglass.testing.topology;

import dev.hourglass.embedded.RedisServer;
import dev.hourglass.embedded.RedisServerException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * What the topologies do with several nodes at once: find the running masters, wait for a state,
 * close them all.
 */
final class Nodes {
  private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

  private Nodes() {}

  /** The running nodes of {@code nodes} that answer {@code ROLE} as a master, in list order. */
  static List<RedisServer> runningMasters(List<RedisServer> nodes) {
    List<RedisServer> masters = new ArrayList<>();
    for (RedisServer node : nodes) {
      if (node.isRunning() && node.command("ROLE").startsWith("master")) {
        masters.add(node);
      }
    }
    return masters;
  }

  /**
   * Polls {@code condition} every 50 ms until it holds.
   *
   * @throws RedisServerException naming {@code what} when it does not within {@code timeout}
   */
  static void await(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new RedisServerException("timed out after " + timeout + " waiting for " + what);
      }
      try {
        Thread.sleep(POLL_INTERVAL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RedisServerException("Interrupted", e);
      }
    }
  }

  /**
   * Closes every server, each even when an earlier one failed; throws the first failure with the
   * others suppressed.
   */
  static void closeAll(List<RedisServer> servers) {
    RuntimeException failure = null;
    for (RedisServer server : servers) {
      try {
        server.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
