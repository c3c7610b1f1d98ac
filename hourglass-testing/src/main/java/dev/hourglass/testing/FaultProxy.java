package dev.hourglass.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy for fault injection: it listens on a free port of 127.0.0.1 and relays every
 * connection to a target (a Redis, or any TCP server), two platform threads per connection, one per
 * direction. Faults, each until undone:
 *
 * <ul>
 *   <li>{@link #dropAll(boolean)}: closes every open connection, and optionally closes each new one
 *       at once ({@link #acceptNew()} undoes that);
 *   <li>{@link #stall(Duration)}: holds the bytes of both directions for a time, connections stay
 *       open, and releases them in order;
 *   <li>{@link #latency(Duration)}: delays every chunk read, in each direction, by a time;
 *   <li>{@link #cut(Direction, boolean)}: holds (or discards) one direction's bytes while the other
 *       flows; {@link #restore()} releases what was held.
 * </ul>
 *
 * {@link #heal()} undoes every fault but a drop (closed connections stay closed). {@link #close()}
 * closes the listener and every connection and waits for the threads.
 */
public final class FaultProxy implements AutoCloseable {
  /** The direction of a connection's bytes. */
  public enum Direction {
    /** From the client (who connected to the proxy) to the server. */
    CLIENT_TO_SERVER,
    /** From the server back to the client. */
    SERVER_TO_CLIENT
  }

  private static final int CHUNK = 16 * 1024;

  private final String targetHost;
  private final int targetPort;
  private final ServerSocket listener;
  private final Thread acceptor;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final Set<Thread> threads = ConcurrentHashMap.newKeySet();

  // Fault state, guarded by this; pumps wait on this.
  private boolean refusing;
  private long stalledUntilNanos = System.nanoTime();
  private long latencyNanos;
  private Direction cut;
  private boolean discardCut;
  private volatile boolean closed;

  private FaultProxy(String targetHost, int targetPort) throws IOException {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    this.listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
    this.acceptor = new Thread(this::accept, "fault-proxy-accept-" + listener.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /**
   * Starts a proxy to {@code host:port}, listening on a free port of 127.0.0.1.
   *
   * @param host the target's host
   * @param port the target's port
   * @return the running proxy
   * @throws UncheckedIOException if no port can be bound
   */
  public static FaultProxy start(String host, int port) {
    try {
      return new FaultProxy(host, port);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bind a fault proxy", e);
    }
  }

  /**
   * The port clients connect to (on 127.0.0.1).
   *
   * @return the proxy's listening port
   */
  public int port() {
    return listener.getLocalPort();
  }

  /**
   * The number of connections open through the proxy.
   *
   * @return client connections whose both ends are open
   */
  public int openConnections() {
    return (int) sockets.stream().filter(s -> !s.isClosed()).count() / 2;
  }

  /**
   * Closes every open connection (both ends); with {@code refuseNew}, each connection accepted from
   * now on is closed at once until {@link #acceptNew()}.
   *
   * @param refuseNew true to keep closing new connections
   */
  public void dropAll(boolean refuseNew) {
    synchronized (this) {
      refusing = refuseNew;
    }
    for (Socket s : List.copyOf(sockets)) {
      closeQuietly(s);
    }
  }

  /** Relays new connections again after {@link #dropAll(boolean) dropAll(true)}. */
  public synchronized void acceptNew() {
    refusing = false;
  }

  /**
   * Holds the bytes of both directions for {@code time}; connections stay open.
   *
   * @param time how long, from now
   */
  public synchronized void stall(Duration time) {
    stalledUntilNanos = System.nanoTime() + time.toNanos();
    notifyAll();
  }

  /**
   * Delays each chunk, in each direction, by {@code perChunk} (zero: none).
   *
   * @param perChunk the delay of every chunk relayed from now on
   */
  public synchronized void latency(Duration perChunk) {
    latencyNanos = perChunk.toNanos();
    notifyAll();
  }

  /**
   * Cuts one direction: its bytes are held until {@link #restore()} (or thrown away with {@code
   * discard}, which leaves a protocol stream out of step: drop the connections afterwards) while
   * the other direction flows.
   *
   * @param direction the direction to cut
   * @param discard true to throw its bytes away instead of holding them
   */
  public synchronized void cut(Direction direction, boolean discard) {
    cut = direction;
    discardCut = discard;
    notifyAll();
  }

  /** Ends a cut; held bytes flow on. */
  public synchronized void restore() {
    cut = null;
    notifyAll();
  }

  /** Ends a stall, a cut and the latency, and relays new connections. */
  public synchronized void heal() {
    stalledUntilNanos = System.nanoTime();
    latencyNanos = 0;
    cut = null;
    refusing = false;
    notifyAll();
  }

  private void accept() {
    while (!closed) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        return; // closed
      }
      synchronized (this) {
        if (refusing) {
          closeQuietly(client);
          continue;
        }
      }
      Socket server = new Socket();
      try {
        client.setTcpNoDelay(true);
        server.setTcpNoDelay(true);
        server.connect(new InetSocketAddress(targetHost, targetPort), 2000);
      } catch (IOException e) {
        closeQuietly(client); // the target is down: the client sees its connection closed
        closeQuietly(server);
        continue;
      }
      sockets.add(client);
      sockets.add(server);
      pump(client, server, Direction.CLIENT_TO_SERVER);
      pump(server, client, Direction.SERVER_TO_CLIENT);
    }
  }

  private void pump(Socket from, Socket to, Direction direction) {
    Thread t =
        new Thread(
            () -> {
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                byte[] buffer = new byte[CHUNK];
                int n;
                while ((n = in.read(buffer)) >= 0) {
                  if (pass(direction)) {
                    out.write(buffer, 0, n);
                    out.flush();
                  }
                }
              } catch (IOException | InterruptedException e) {
                // a closed socket or close(): end the connection
              } finally {
                closeQuietly(from);
                closeQuietly(to);
                sockets.remove(from);
                sockets.remove(to);
                threads.remove(Thread.currentThread());
              }
            },
            "fault-proxy-" + port() + "-" + direction);
    t.setDaemon(true);
    threads.add(t);
    t.start();
  }

  /** Waits out a stall, a held cut and the latency; false when the chunk is to be discarded. */
  private synchronized boolean pass(Direction direction) throws InterruptedException {
    long delayUntil = System.nanoTime() + latencyNanos;
    while (true) {
      if (closed) {
        throw new InterruptedException("closed");
      }
      if (cut == direction && discardCut) {
        return false;
      }
      long now = System.nanoTime();
      long until = Math.max(stalledUntilNanos, delayUntil);
      if (cut == direction) {
        wait(100);
      } else if (now < until) {
        long ms = Math.max(1, (until - now) / 1_000_000);
        wait(ms);
      } else {
        return true;
      }
    }
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // closing
    }
  }

  @Override
  public void close() {
    closed = true;
    synchronized (this) {
      notifyAll();
    }
    try {
      listener.close();
    } catch (IOException e) {
      // closing
    }
    dropAll(true);
    try {
      acceptor.join(5000);
      for (Thread t : List.copyOf(threads)) {
        t.join(5000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "FaultProxy[127.0.0.1:" + port() + " -> " + targetHost + ":" + targetPort + "]";
  }
}
