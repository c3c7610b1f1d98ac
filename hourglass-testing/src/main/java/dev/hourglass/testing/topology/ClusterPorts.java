package dev.hourglass.testing.topology;

import dev.hourglass.embedded.RedisServerException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Finds ports for cluster nodes, which listen on their port and on port + 10000 (the cluster bus).
 * Thread-safe.
 */
final class ClusterPorts {

  /** How far above its port a node's cluster bus listens. */
  static final int BUS_OFFSET = 10000;

  private static final String HOST = "127.0.0.1";
  private static final int ATTEMPTS = 100;

  private ClusterPorts() {}

  /**
   * Returns a port that, with its cluster bus port ({@code port + 10000}), was free on 127.0.0.1
   * when probed. The operating system's ephemeral ports may lie too high for a bus port, so the
   * candidates are drawn from 10000 to 55535.
   *
   * @throws RedisServerException if no such pair is found in 100 attempts
   */
  static int find() {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      int candidate = ThreadLocalRandom.current().nextInt(10000, 65536 - BUS_OFFSET);
      if (isFree(candidate) && isFree(candidate + BUS_OFFSET)) {
        return candidate;
      }
    }
    throw new RedisServerException("Cannot find a free port pair (port, port + 10000) on " + HOST);
  }

  private static boolean isFree(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName(HOST))) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
