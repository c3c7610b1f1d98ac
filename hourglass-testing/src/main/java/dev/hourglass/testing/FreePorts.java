package dev.hourglass.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/** Free loopback ports for servers that must keep their port across a restart. */
public final class FreePorts {
  /**
   * Where Linux starts the ports it gives outgoing connections and port-0 servers
   * (ip_local_port_range).
   */
  private static final int EPHEMERAL_FROM = 32_768;

  private FreePorts() {}

  /**
   * A port that was free a moment ago.
   *
   * @return a loopback port the system chose
   * @throws java.io.UncheckedIOException when no socket can be bound
   */
  public static int any() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A port p from 20000 on such that p and p + {@code offset} were both free a moment ago, and both
   * below the ports the system hands out by itself (outgoing connections, servers on port 0), so
   * that neither is taken by a connection in the meantime.
   *
   * @param offset the distance of the second port, below 12768
   * @return p
   * @throws IllegalStateException when 1000 random tries found no such pair
   */
  public static int pair(int offset) {
    for (int i = 0; i < 1000; i++) {
      int port = ThreadLocalRandom.current().nextInt(20_000, EPHEMERAL_FROM - offset);
      try (ServerSocket a = new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
          ServerSocket b = new ServerSocket(port + offset, 1, InetAddress.getLoopbackAddress())) {
        return port;
      } catch (IOException e) {
        // taken: try another
      }
    }
    throw new IllegalStateException(
        "no free pair of ports " + offset + " apart below " + EPHEMERAL_FROM);
  }
}
