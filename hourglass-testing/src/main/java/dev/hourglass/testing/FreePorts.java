package dev.hourglass.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/** Free loopback ports for servers that must keep their port across a restart. */
public final class FreePorts {
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
   * A port from 20000 up to {@code limit} that was free a moment ago.
   *
   * @param limit above 20000; the port is below it
   * @return a loopback port in that range
   * @throws IllegalStateException when 1000 random tries found none free
   */
  public static int below(int limit) {
    for (int i = 0; i < 1000; i++) {
      int port = ThreadLocalRandom.current().nextInt(20_000, limit);
      try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        return port;
      } catch (IOException e) {
        // taken: try another
      }
    }
    throw new IllegalStateException("no free port from 20000 to " + limit);
  }
}
