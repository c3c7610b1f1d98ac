package dev.hourglass.embedded;

import java.util.List;

/**
 * A set of Redis processes started, talked to and stopped as one unit.
 *
 * <p>{@link RedisServer} runs one standalone server. The test topologies of {@code
 * hourglass-testing} ({@code dev.hourglass.testing.topology}) are built from such servers: {@code
 * RedisCluster}, three cluster masters (and optionally a replica each), and {@code RedisSentinel},
 * a master, its replicas and the sentinels monitoring it. All reuse the process machinery of {@link
 * RedisServer}: one free port per process kept across restarts, the JVM shutdown hook and the
 * per-process watchdog, so nothing is ever left running after the JVM ends.
 *
 * <p>Threading: implementations are safe to use from several threads; lifecycle methods are
 * serialised.
 */
public interface RedisDeployment extends AutoCloseable {

  /**
   * Starts every process and returns once all of them answer commands. Does nothing if the
   * deployment is already running. A deployment that was stopped restarts on the same ports with
   * the same data directories.
   *
   * @throws RedisServerException if a process cannot be started; the message carries its log tail
   * @throws IllegalStateException if the deployment was {@linkplain #close() closed}
   */
  void start();

  /**
   * Stops every process gracefully and waits for it to exit. Data directories are kept, so {@link
   * #start()} can bring the deployment back. Does nothing if it is not running.
   */
  void stop();

  /**
   * Tells whether the deployment's processes are alive.
   *
   * @return {@code true} if every process is running
   */
  boolean isRunning();

  /**
   * Returns the addresses a client connects to, as {@code redis://host:port} strings, or a {@code
   * redis-sentinel://} URI for a sentinel deployment.
   *
   * @return one URI for a standalone server, one per seed node for a cluster, the sentinel's URI
   * @throws IllegalStateException if the ports are not known yet (never started)
   */
  List<String> uris();

  /**
   * Deletes every key on every master ({@code FLUSHALL}).
   *
   * @throws RedisServerException if the deployment does not answer
   */
  void flushAll();

  /**
   * Stops the deployment for good and deletes the data directories it created itself. It cannot be
   * started again. Calling it twice is harmless.
   */
  @Override
  void close();
}
