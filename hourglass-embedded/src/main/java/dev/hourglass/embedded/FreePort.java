package dev.hourglass.embedded;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Finds a TCP port on the loopback interface that is free right now.
 *
 * <p>The port is only probed, not held, so another process can take it before the server binds it;
 * {@link RedisServer} retries on a new port when that happens. Thread-safe.
 */
final class FreePort {

  private FreePort() {}

  /**
   * Returns a port that was free on 127.0.0.1 when probed.
   *
   * @throws RedisServerException if the operating system hands out no port
   */
  static int find() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(RedisServer.HOST))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new RedisServerException("Cannot find a free port on " + RedisServer.HOST, e);
    }
  }

  /** Redis Cluster nodes listen on their port and on port + 10000 (the cluster bus). */
  static final int CLUSTER_BUS_OFFSET = 10000;

  private static final int CLUSTER_PORT_ATTEMPTS = 100;

  /**
   * Returns a port that, with its cluster bus port ({@code port + 10000}), was free on 127.0.0.1
   * when probed. The operating system's ephemeral ports may lie too high for a bus port, so the
   * candidates are drawn from 10000 to 55535.
   *
   * @throws RedisServerException if no such pair is found in 100 attempts
   */
  static int findForCluster() {
    for (int attempt = 0; attempt < CLUSTER_PORT_ATTEMPTS; attempt++) {
      int candidate = ThreadLocalRandom.current().nextInt(10000, 65536 - CLUSTER_BUS_OFFSET);
      if (isFree(candidate) && isFree(candidate + CLUSTER_BUS_OFFSET)) {
        return candidate;
      }
    }
    throw new RedisServerException(
        "Cannot find a free port pair (port, port + 10000) on " + RedisServer.HOST);
  }

  private static boolean isFree(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName(RedisServer.HOST))) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
