package dev.hourglass.embedded;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

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
}
