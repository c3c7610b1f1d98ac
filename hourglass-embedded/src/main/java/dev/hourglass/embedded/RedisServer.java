package dev.hourglass.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * One real, standalone {@code redis-server} process on 127.0.0.1, run as a child of this JVM: for
 * tests, and for the server's zero-configuration default.
 *
 * <p>By default the server keeps everything in memory ({@code --save "" --appendonly no}); {@link
 * RedisServerBuilder#persistent()} turns on the append-only file with {@code --appendfsync always},
 * so every acknowledged write survives {@link #stop()}, {@link #kill()} and the following {@link
 * #start()}. The server's working directory ({@link #dataDir()}) holds its AOF, its log {@code
 * redis.log} and its captured standard output {@code redis.out}.
 *
 * <p>Lifecycle: {@link #start()} picks a free port on the first start (retrying on another port if
 * the chosen one was taken in the meantime) and returns once the server answers {@code PING}.
 * {@link #stop()} shuts it down gracefully, {@link #kill()} crashes it with {@code SIGKILL}. Either
 * can be followed by {@link #start()}, which reuses the same port and data directory. {@link
 * #close()} stops it for good and deletes the data directory if this class created it.
 *
 * <p>No server outlives the JVM (see the {@linkplain dev.hourglass.embedded package}): the shutdown
 * hook leaves only a {@linkplain RedisServerBuilder#persistent() persistent} server in a
 * {@linkplain RedisServerBuilder#dataDir caller's directory} to its owner, which can use it while
 * shutting down and then {@link #stop()} it from its own shutdown hook, as below.
 *
 * <p>Threading: all methods are thread-safe. Lifecycle methods ({@code start}, {@code stop}, {@code
 * kill}, {@code close}) are serialised on this instance; {@link #command} and {@link #flushAll()}
 * open their own connection per call and do not lock.
 *
 * <pre>{@code
 * // A test:
 * try (RedisServer redis = RedisServer.builder().persistent().build()) {
 *   redis.start();
 *   redis.command("SET", "k", "v");
 *   redis.kill();
 *   redis.start();
 *   assert "v".equals(redis.command("GET", "k"));
 * }
 *
 * // A long-running process keeping its data in ./data:
 * RedisServer redis = RedisServer.builder().persistent().dataDir(Path.of("data")).build();
 * redis.start();
 * Runtime.getRuntime().addShutdownHook(new Thread(() -> {
 *   // ... stop using redis.uri(), then:
 *   redis.stop();
 * }));
 * }</pre>
 */
public final class RedisServer implements RedisDeployment {

  /** The address every server binds to. */
  static final String HOST = "127.0.0.1";

  private static final System.Logger LOG = System.getLogger(RedisServer.class.getName());
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);

  private final ServerSettings settings;
  private final ServerRunner runner;

  /**
   * 0 until the first successful start (or the fixed port from the builder); then never changes.
   */
  private volatile int port;

  private RedisProcess process; // guarded by this
  private boolean closed; // guarded by this

  RedisServer(ServerSettings settings) {
    this.settings = settings;
    this.runner = new ServerRunner(settings);
    this.port = settings.fixedPort();
  }

  /**
   * Returns a builder for a server with the defaults: in memory only, free port, own temporary data
   * directory.
   *
   * @return a new builder
   */
  public static RedisServerBuilder builder() {
    return new RedisServerBuilder();
  }

  /**
   * Creates a server with the defaults; shorthand for {@code builder().build()}. It is not started.
   *
   * @return a new, stopped server
   */
  public static RedisServer create() {
    return builder().build();
  }

  /**
   * Starts the server and waits until it answers {@code PING}. Does nothing if it is running. After
   * {@link #stop()} or {@link #kill()} it restarts on the same port and data directory; with AOF
   * the data written before is loaded again.
   *
   * @throws RedisServerException if the server does not come up; the message carries the tail of
   *     its log. On the first start a port taken between probing and binding is retried on another
   *     port; a restart never changes port and fails if the port is taken.
   * @throws IllegalStateException if the server was closed
   */
  @Override
  public synchronized void start() {
    if (closed) {
      throw new IllegalStateException(this + " is closed");
    }
    if (process != null) {
      if (process.isAlive()) {
        return;
      }
      LOG.log(
          Level.WARNING,
          "{0} had exited on its own with code {1}; restarting",
          this,
          process.exitValue());
      process.release();
      process = null;
    }
    ServerRunner.Started started = runner.start(port);
    process = started.process();
    port = started.port();
  }

  /**
   * Stops the server gracefully and waits for it to exit: {@code SHUTDOWN NOSAVE} for an in-memory
   * server, {@code SIGTERM} (which flushes and fsyncs the AOF) for a persistent one. A server that
   * does not exit within 10 seconds is killed. Does nothing if the server is not running. The port
   * and data directory are kept for the next {@link #start()}.
   */
  @Override
  public synchronized void stop() {
    if (process == null) {
      return;
    }
    RedisProcess stopping = process;
    process = null;
    runner.stop(stopping, port);
  }

  /**
   * Crashes the server with {@code SIGKILL} and waits for it to die, simulating a power cut: with
   * AOF and {@code appendfsync always} every acknowledged write is on disk, anything else is lost.
   * Does nothing if the server is not running.
   */
  public synchronized void kill() {
    if (process == null) {
      return;
    }
    RedisProcess killed = process;
    process = null;
    killed.kill();
  }

  /**
   * Stalls the server with {@code SIGSTOP}: it keeps its sockets but answers nothing until {@link
   * #resume()}. {@link #stop()}, {@link #kill()}, the watchdog and the shutdown hook still end a
   * paused server.
   *
   * @throws IllegalStateException if the server is not running
   */
  public synchronized void pause() {
    ProcessSignals.stop(pid());
  }

  /**
   * Continues a server stalled by {@link #pause()} with {@code SIGCONT}; harmless on one that is
   * not paused.
   *
   * @throws IllegalStateException if the server is not running
   */
  public synchronized void resume() {
    ProcessSignals.cont(pid());
  }

  /**
   * Tells whether the server process is alive.
   *
   * @return {@code true} between a successful {@link #start()} and {@link #stop()}/{@link #kill()},
   *     unless the process died on its own
   */
  @Override
  public synchronized boolean isRunning() {
    return process != null && process.isAlive();
  }

  /**
   * Returns the operating-system process id of the running server.
   *
   * @return the pid
   * @throws IllegalStateException if the server is not running
   */
  public synchronized long pid() {
    if (!isRunning()) {
      throw new IllegalStateException(this + " is not running");
    }
    return process.pid();
  }

  /**
   * Returns the TCP port; it stays the same across restarts.
   *
   * @return the port
   * @throws IllegalStateException before the first start, unless a port was fixed in the builder
   */
  public int port() {
    int p = port;
    if (p == 0) {
      throw new IllegalStateException("The port is chosen on the first start()");
    }
    return p;
  }

  /**
   * Returns the address the server binds to.
   *
   * @return {@code "127.0.0.1"}
   */
  public String host() {
    return HOST;
  }

  /**
   * Returns the URI a client connects to.
   *
   * @return {@code redis://127.0.0.1:<port>}
   * @throws IllegalStateException before the first start, unless a port was fixed in the builder
   */
  public String uri() {
    return "redis://" + HOST + ":" + port();
  }

  /**
   * Returns a one-element list holding {@link #uri()}.
   *
   * @return the server's URI
   */
  @Override
  public List<String> uris() {
    return List.of(uri());
  }

  /**
   * Returns the server's working directory: AOF, {@code redis.log} and {@code redis.out} live here.
   *
   * @return the data directory; it exists from construction on
   */
  public Path dataDir() {
    return settings.dataDir();
  }

  /**
   * Tells whether the server writes an append-only file.
   *
   * @return {@code true} if built with {@link RedisServerBuilder#persistent()}
   */
  public boolean isPersistent() {
    return settings.persistent();
  }

  /**
   * Deletes every key in every database.
   *
   * @throws RedisServerException if the server does not answer
   */
  @Override
  public void flushAll() {
    command("FLUSHALL");
  }

  /**
   * Sends one command over a fresh connection and returns the reply as text. Simple strings,
   * integers and bulk strings come back as their text ({@code "PONG"}, {@code "0"}, {@code "v"}), a
   * nil reply as {@code null}, an array as its elements joined by {@code '\n'} (nil elements as
   * empty lines, nested arrays flattened). Meant for test assertions and setup, not for speed.
   *
   * @param args the command name followed by its arguments, e.g. {@code command("DBSIZE")}
   * @return the decoded reply, or {@code null} for a nil reply
   * @throws RedisCommandException if the server replies with an error
   * @throws RedisServerException if the server cannot be reached
   * @throws IllegalStateException before the first start
   */
  public String command(String... args) {
    int p = port();
    try {
      return RespClient.call(HOST, p, COMMAND_TIMEOUT, args);
    } catch (IOException e) {
      throw new RedisServerException(
          "Cannot run " + Arrays.toString(args) + " on " + HOST + ":" + p, e);
    }
  }

  /**
   * Stops the server and deletes its data directory if it is the temporary one this class created
   * (a directory given to {@link RedisServerBuilder#dataDir} is left alone). The server cannot be
   * started again. Calling it twice is harmless.
   *
   * @throws UncheckedIOException if the data directory cannot be deleted
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      stop();
    } finally {
      if (settings.ownsDataDir()) {
        ShutdownCleanup.deleteRecursively(settings.dataDir());
        ShutdownCleanup.unregisterDirectory(settings.dataDir());
      }
    }
  }

  @Override
  public String toString() {
    int p = port;
    return "RedisServer["
        + (p == 0 ? "port not chosen" : HOST + ":" + p)
        + (settings.persistent() ? ", aof" : "")
        + ", "
        + settings.dataDir()
        + "]";
  }
}
