package dev.hourglass.embedded;

import java.time.Duration;
import java.util.List;

/**
 * One master and one sentinel monitoring it, for tests of clients that find the master through
 * Sentinel ({@code redis-sentinel://}). Both are {@link RedisServer}s of the same binary; the
 * sentinel runs with {@code --sentinel} and a generated {@code sentinel.conf} (Sentinel refuses to
 * start without a config file it can rewrite) holding {@code sentinel monitor} for {@link
 * #MASTER_NAME} with a quorum of one.
 *
 * <p>There are no replicas, so there is nothing to fail over to: this deployment proves master
 * discovery only. The sentinel is built on the first {@link #start()}, once the master's port is
 * known, and both keep their ports across {@link #stop()} and {@link #start()}.
 *
 * <pre>{@code
 * try (RedisSentinel group = RedisSentinel.create()) {
 *   group.start();
 *   RedisClient client = RedisClient.create(group.sentinelUri());
 *   ...
 * }
 * }</pre>
 *
 * <p>Both processes have the watchdog and shutdown hook of {@link RedisServer}, so neither outlives
 * the JVM. Threading: safe to use from several threads; lifecycle methods are serialised.
 */
public final class RedisSentinel implements RedisDeployment {

  /** The name the sentinel knows the master by ({@code sentinelMasterId} in Lettuce). */
  public static final String MASTER_NAME = "mymaster";

  private static final Duration DISCOVERY_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

  private final RedisServer master = RedisServer.create();
  private RedisServer sentinel; // guarded by this; null until the first start
  private boolean closed; // guarded by this

  private RedisSentinel() {}

  /**
   * Creates an in-memory master and its sentinel on free ports. They are not started.
   *
   * @return a new, stopped deployment
   */
  public static RedisSentinel create() {
    return new RedisSentinel();
  }

  /**
   * Starts the master, then the sentinel, and waits until the sentinel reports the master's
   * address.
   *
   * @throws RedisServerException if a process does not start or the sentinel does not report the
   *     master within 10 s
   * @throws IllegalStateException if the deployment was closed
   */
  @Override
  public synchronized void start() {
    if (closed) {
      throw new IllegalStateException(this + " is closed");
    }
    master.start();
    if (sentinel == null) {
      sentinel =
          RedisServer.builder()
              .configFile("sentinel.conf", sentinelConfig(master.port()))
              .args("--sentinel")
              .build();
    }
    sentinel.start();
    awaitMasterKnown();
  }

  private static String sentinelConfig(int masterPort) {
    return "sentinel monitor "
        + MASTER_NAME
        + " "
        + RedisServer.HOST
        + " "
        + masterPort
        + " 1\n"
        + "sentinel down-after-milliseconds "
        + MASTER_NAME
        + " 2000\n";
  }

  /** Polls until the sentinel answers with the master's address, which Lettuce asks it first. */
  private void awaitMasterKnown() {
    String expected = RedisServer.HOST + "\n" + master.port();
    long deadline = System.nanoTime() + DISCOVERY_TIMEOUT.toNanos();
    String last;
    while (true) {
      last = sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME);
      if (expected.equals(last)) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new RedisServerException(
            "sentinel did not report the master "
                + expected.replace('\n', ':')
                + " within "
                + DISCOVERY_TIMEOUT
                + "; last answer: "
                + last);
      }
      RedisProcess.sleep(POLL_INTERVAL);
    }
  }

  /** Stops the sentinel, then the master; {@link #start()} brings both back on the same ports. */
  @Override
  public synchronized void stop() {
    if (sentinel != null) {
      sentinel.stop();
    }
    master.stop();
  }

  @Override
  public synchronized boolean isRunning() {
    return sentinel != null && sentinel.isRunning() && master.isRunning();
  }

  /**
   * Returns the one address a Sentinel client needs: {@link #sentinelUri()}.
   *
   * @return a one-element list
   * @throws IllegalStateException before the first start
   */
  @Override
  public List<String> uris() {
    return List.of(sentinelUri());
  }

  /**
   * Returns the sentinel as a Lettuce URI naming the master: {@code
   * redis-sentinel://127.0.0.1:<sentinelPort>#mymaster}.
   *
   * @return the URI
   * @throws IllegalStateException before the first start
   */
  public synchronized String sentinelUri() {
    return "redis-sentinel://" + sentinel().host() + ":" + sentinel().port() + "#" + MASTER_NAME;
  }

  /**
   * Returns the master, e.g. to run a command on it.
   *
   * @return the master server
   */
  public RedisServer master() {
    return master;
  }

  /**
   * Returns the sentinel process.
   *
   * @return the sentinel
   * @throws IllegalStateException before the first start
   */
  public synchronized RedisServer sentinel() {
    if (sentinel == null) {
      throw new IllegalStateException("The sentinel is created on the first start()");
    }
    return sentinel;
  }

  /** Runs {@code FLUSHALL} on the master. */
  @Override
  public void flushAll() {
    master.flushAll();
  }

  /** Stops both processes for good and deletes their data directories. Harmless twice. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (sentinel != null) {
        sentinel.close();
      }
    } finally {
      master.close();
    }
  }

  @Override
  public synchronized String toString() {
    return "RedisSentinel[master " + master + ", sentinel " + sentinel + "]";
  }
}
