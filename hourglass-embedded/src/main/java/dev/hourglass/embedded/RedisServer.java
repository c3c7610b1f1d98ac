package dev.hourglass.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One real, standalone {@code redis-server} process on 127.0.0.1, run as a child of this JVM: for
 * tests, and for the server's zero-configuration default.
 *
 * <p>By default the server keeps everything in memory ({@code --save "" --appendonly no}); {@link
 * Builder#persistent()} turns on the append-only file with {@code --appendfsync always}, so every
 * acknowledged write survives {@link #stop()}, {@link #kill()} and the following {@link #start()}.
 * The server's working directory ({@link #dataDir()}) holds its AOF, its log {@code redis.log} and
 * its captured standard output {@code redis.out}.
 *
 * <p>Lifecycle: {@link #start()} picks a free port on the first start (retrying on another port if
 * the chosen one was taken in the meantime) and returns once the server answers {@code PING}.
 * {@link #stop()} shuts it down gracefully, {@link #kill()} crashes it with {@code SIGKILL}. Either
 * can be followed by {@link #start()}, which reuses the same port and data directory. {@link
 * #close()} stops it for good and deletes the data directory if this class created it.
 *
 * <p>No server outlives the JVM: a per-server {@code /bin/sh} watchdog kills the server within
 * about a second once the JVM is gone, even if it was killed outright, and a shutdown hook kills
 * running servers at exit. The hook leaves alone a server whose data outlives it (a {@linkplain
 * Builder#persistent() persistent} one in a {@linkplain Builder#dataDir caller's directory}), so
 * that its owner can still use it while shutting down and then {@link #stop()} it gracefully from
 * its own shutdown hook; should the owner not stop it, the watchdog kills it once the JVM has
 * exited, which loses nothing acknowledged with {@code appendfsync always}.
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

  /** Name of the server's log file inside {@link #dataDir()}. */
  static final String LOG_FILE = "redis.log";

  /** Name of the file inside {@link #dataDir()} that captures standard output and error. */
  static final String OUTPUT_FILE = "redis.out";

  private static final System.Logger LOG = System.getLogger(RedisServer.class.getName());
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);

  /**
   * Connect and read timeout of one readiness probe. Short, because a port held by a plain socket
   * accepts the connection and never answers; a slow probe simply counts as "not ready yet".
   */
  private static final Duration PROBE_TIMEOUT = Duration.ofMillis(250);

  private static final Duration POLL_INTERVAL = Duration.ofMillis(10);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
  private static final int PORT_ATTEMPTS = 5;
  private static final int LOG_TAIL_LINES = 30;
  private static final Pattern PROCESS_ID = Pattern.compile("(?m)^process_id:(\\d+)\\s*$");
  private static final Set<String> RESERVED_OPTIONS =
      Set.of("--port", "--bind", "--dir", "--daemonize", "--logfile");

  private final boolean persistent;
  private final Path dataDir;
  private final boolean ownsDataDir;

  /** Whether the JVM shutdown hook kills the server; see the class comment. */
  private final boolean killAtExit;

  private final List<String> extraArgs;

  /** Words before the binary on the command line: a tool that runs it, such as valgrind. */
  private final List<String> launcher;

  /** A config file inside {@link #dataDir} passed as the first argument, or null for none. */
  private final String configFile;

  private final IntSupplier portChooser;
  private final Duration startupTimeout;

  /**
   * 0 until the first successful start (or the fixed port from the builder); then never changes.
   */
  private volatile int port;

  private RedisProcess process; // guarded by this
  private boolean closed; // guarded by this

  private RedisServer(Builder builder, Path dataDir, boolean ownsDataDir) {
    this.persistent = builder.persistent;
    this.dataDir = dataDir;
    this.ownsDataDir = ownsDataDir;
    this.killAtExit = ownsDataDir || !persistent;
    this.extraArgs = List.copyOf(builder.args);
    this.launcher = List.copyOf(builder.launcher);
    this.configFile = builder.configFileName;
    this.portChooser = builder.portChooser;
    this.startupTimeout = builder.startupTimeout;
    this.port = builder.port;
  }

  /**
   * Returns a builder for a server with the defaults: in memory only, free port, own temporary data
   * directory.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
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
    if (port != 0) {
      process = launch(port);
      return;
    }
    PortInUseException lastConflict = null;
    for (int attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
      int candidate = portChooser.getAsInt();
      try {
        process = launch(candidate);
        port = candidate;
        return;
      } catch (PortInUseException e) {
        LOG.log(Level.DEBUG, "Port " + candidate + " was taken, trying another one", e);
        lastConflict = e;
      }
    }
    throw new RedisServerException(
        "redis-server found no free port in " + PORT_ATTEMPTS + " attempts", lastConflict);
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
    try {
      if (!stopping.isAlive()) {
        return;
      }
      // A paused (SIGSTOPped) server would ignore SHUTDOWN and SIGTERM until continued.
      ProcessSignals.cont(stopping.pid());
      if (persistent) {
        stopping.terminate();
      } else {
        shutdownNoSave(stopping);
      }
      if (!stopping.awaitExit(STOP_TIMEOUT)) {
        LOG.log(Level.WARNING, "{0} ignored shutdown for {1}; killing it", this, STOP_TIMEOUT);
      }
    } finally {
      // A no-op SIGKILL once it has exited; otherwise (timeout, interrupt, failure) it ends it
      // here.
      stopping.kill();
    }
  }

  private void shutdownNoSave(RedisProcess stopping) {
    try {
      RespClient.callExpectingClose(HOST, port, COMMAND_TIMEOUT, "SHUTDOWN", "NOSAVE");
    } catch (IOException | RedisCommandException e) {
      LOG.log(Level.WARNING, "SHUTDOWN NOSAVE failed on " + this + "; sending SIGTERM", e);
      stopping.terminate();
    }
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
    return dataDir;
  }

  /**
   * Tells whether the server writes an append-only file.
   *
   * @return {@code true} if built with {@link Builder#persistent()}
   */
  public boolean isPersistent() {
    return persistent;
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
   * (a directory given to {@link Builder#dataDir} is left alone). The server cannot be started
   * again. Calling it twice is harmless.
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
      if (ownsDataDir) {
        ShutdownCleanup.deleteRecursively(dataDir);
        ShutdownCleanup.unregisterDirectory(dataDir);
      }
    }
  }

  @Override
  public String toString() {
    int p = port;
    return "RedisServer["
        + (p == 0 ? "port not chosen" : HOST + ":" + p)
        + (persistent ? ", aof" : "")
        + ", "
        + dataDir
        + "]";
  }

  private RedisProcess launch(int port) {
    Path log = dataDir.resolve(LOG_FILE);
    Path output = dataDir.resolve(OUTPUT_FILE);
    long logOffset = LogTail.size(log);
    long outputOffset = LogTail.size(output);
    List<String> command = commandLine(port);
    RedisProcess started;
    try {
      started = RedisProcess.start(command, dataDir, output, killAtExit);
    } catch (IOException e) {
      throw new RedisServerException("Cannot run " + String.join(" ", command), e);
    }
    String failure;
    try {
      failure = awaitReady(started, port);
    } catch (RuntimeException e) {
      started.kill();
      throw e;
    }
    if (failure == null) {
      LOG.log(Level.DEBUG, "Started {0} as pid {1}", this, started.pid());
      return started;
    }
    started.kill();
    String message =
        "redis-server on port "
            + port
            + " did not start: "
            + failure
            + "\ncommand: "
            + String.join(" ", command)
            + "\n--- "
            + log
            + " ---\n"
            + LogTail.read(log, logOffset, LOG_TAIL_LINES)
            + "--- "
            + output
            + " ---\n"
            + LogTail.read(output, outputOffset, LOG_TAIL_LINES);
    if (message.contains("Address already in use")) {
      throw new PortInUseException(message);
    }
    throw new RedisServerException(message);
  }

  private List<String> commandLine(int port) {
    Path dir = dataDir.toAbsolutePath();
    List<String> command = new ArrayList<>(launcher);
    command.add(RedisBinary.path().toString());
    if (configFile != null) {
      // redis-server only reads a config file given as the first argument.
      command.add(dir.resolve(configFile).toString());
    }
    command.addAll(
        List.of(
            "--port",
            Integer.toString(port),
            "--bind",
            HOST,
            "--protected-mode",
            "no",
            "--daemonize",
            "no",
            "--dir",
            dir.toString(),
            "--logfile",
            dir.resolve(LOG_FILE).toString(),
            "--loglevel",
            "warning",
            "--save",
            ""));
    if (persistent) {
      command.addAll(List.of("--appendonly", "yes", "--appendfsync", "always"));
    } else {
      command.addAll(List.of("--appendonly", "no"));
    }
    command.addAll(extraArgs);
    return command;
  }

  /** Polls until the server answers PING; returns null when ready, or why it is not. */
  private String awaitReady(RedisProcess started, int port) {
    long deadline = System.nanoTime() + startupTimeout.toNanos();
    String lastProblem = "no connection attempt yet";
    while (true) {
      if (!started.isAlive()) {
        return "the process exited with code " + started.exitValue();
      }
      if (System.nanoTime() - deadline > 0) {
        return "no PONG within " + startupTimeout + " (last problem: " + lastProblem + ")";
      }
      try {
        String reply = RespClient.call(HOST, port, PROBE_TIMEOUT, "PING");
        if (!"PONG".equals(reply)) {
          return "PING was answered with " + reply;
        }
        long answeringPid = serverPid(port);
        if (answeringPid == started.pid()) {
          return null;
        }
        // Another server owns the port; ours will exit with "Address already in use".
        lastProblem = "port " + port + " is answered by another redis-server, pid " + answeringPid;
      } catch (RedisCommandException e) {
        if (!e.errorReply().startsWith("LOADING")) {
          return "PING was answered with the error " + e.errorReply();
        }
        lastProblem = e.errorReply();
      } catch (IOException e) {
        lastProblem = e.toString(); // Not listening yet: expected while the server boots.
      }
      RedisProcess.sleep(POLL_INTERVAL);
    }
  }

  private static long serverPid(int port) throws IOException {
    String info = RespClient.call(HOST, port, PROBE_TIMEOUT, "INFO", "server");
    Matcher matcher = PROCESS_ID.matcher(info == null ? "" : info);
    if (!matcher.find()) {
      throw new IOException("INFO server has no process_id: " + info);
    }
    return Long.parseLong(matcher.group(1));
  }

  /**
   * Configures a {@link RedisServer}. Not thread-safe; build on one thread.
   *
   * <p>Defaults: in memory only, a free port chosen at the first start, a fresh temporary data
   * directory, a 10 second startup timeout, no extra arguments.
   */
  public static final class Builder {

    private boolean persistent;
    private Path dataDir;
    private final List<String> args = new ArrayList<>();
    private final List<String> launcher = new ArrayList<>();
    private int port;
    private String configFileName;
    private String configFileText;
    private Duration startupTimeout = Duration.ofSeconds(10);
    private IntSupplier portChooser = FreePort::find;

    private Builder() {}

    /**
     * Turns on the append-only file, fsynced after every write ({@code --appendonly yes
     * --appendfsync always}), so data survives {@link RedisServer#stop()}, {@link
     * RedisServer#kill()} and restarts.
     *
     * @return this builder
     */
    public Builder persistent() {
      this.persistent = true;
      return this;
    }

    /**
     * Uses {@code dir} as the working directory instead of a fresh temporary one. It is created if
     * missing and never deleted by this class, neither by {@link RedisServer#close()} nor at JVM
     * exit. Reuse a directory across servers to hand an AOF from one to the next. A persistent
     * server in such a directory is not killed by the JVM shutdown hook; its owner stops it (see
     * the class comment).
     *
     * @param dir the data directory
     * @return this builder
     */
    public Builder dataDir(Path dir) {
      this.dataDir = Objects.requireNonNull(dir, "dir");
      return this;
    }

    /**
     * Appends raw {@code redis-server} command-line arguments after the built-in ones, e.g. {@code
     * args("--maxmemory", "10mb")}; later options override earlier ones. May be called repeatedly.
     * Options this class manages ({@code --port}, {@code --bind}, {@code --dir}, {@code
     * --daemonize}, {@code --logfile}) are rejected; so is anything that stops {@code PING} from
     * working without a password.
     *
     * @param extraArgs the arguments
     * @return this builder
     * @throws IllegalArgumentException for a managed option
     */
    public Builder args(String... extraArgs) {
      for (String arg : extraArgs) {
        Objects.requireNonNull(arg, "arg");
        if (RESERVED_OPTIONS.contains(arg)) {
          throw new IllegalArgumentException(arg + " is managed by RedisServer");
        }
      }
      args.addAll(Arrays.asList(extraArgs));
      return this;
    }

    /**
     * Runs the binary through a tool that executes it in the same process, e.g. {@code
     * launcher("valgrind", "--tool=callgrind")}: the words go before the binary on the command
     * line. The tool must keep the process id ({@link RedisServer#pid()} is the tool's), as
     * valgrind does.
     *
     * @param words the tool and its options
     * @return this builder
     */
    public Builder launcher(String... words) {
      for (String word : words) {
        launcher.add(Objects.requireNonNull(word, "word"));
      }
      return this;
    }

    /**
     * Fixes the port instead of picking a free one. A taken port then fails {@link
     * RedisServer#start()} instead of moving to another port.
     *
     * @param port a TCP port, 1 to 65535
     * @return this builder
     */
    public Builder port(int port) {
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("port " + port);
      }
      this.port = port;
      return this;
    }

    /**
     * Sets how long {@link RedisServer#start()} waits for {@code PING} to succeed.
     *
     * @param timeout a positive duration
     * @return this builder
     */
    public Builder startupTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout " + timeout);
      }
      this.startupTimeout = timeout;
      return this;
    }

    /** Replaces the free-port probe: for cluster nodes, and tests of the port-conflict retry. */
    Builder portChooser(IntSupplier chooser) {
      this.portChooser = Objects.requireNonNull(chooser, "chooser");
      return this;
    }

    /**
     * Writes {@code text} to {@code fileName} in the data directory when the server is built, and
     * passes that file to {@code redis-server} as its config file. For a sentinel, which keeps its
     * state by rewriting its config file and refuses to start without one.
     *
     * @param fileName the file's name in the data directory
     * @param text the config file's content
     * @return this builder
     * @throws NullPointerException when either is null
     */
    public Builder configFile(String fileName, String text) {
      this.configFileName = Objects.requireNonNull(fileName, "fileName");
      this.configFileText = Objects.requireNonNull(text, "text");
      return this;
    }

    /**
     * Creates the server, not started, and its data directory.
     *
     * @return the server
     * @throws RedisServerException if the data directory cannot be created
     */
    public RedisServer build() {
      try {
        if (dataDir != null) {
          Files.createDirectories(dataDir);
          writeConfigFile(dataDir);
          return new RedisServer(this, dataDir, false);
        }
        Path dir = Files.createTempDirectory("hourglass-redis-");
        ShutdownCleanup.registerDirectory(dir);
        writeConfigFile(dir);
        return new RedisServer(this, dir, true);
      } catch (IOException e) {
        throw new RedisServerException("Cannot create the data directory or its config file", e);
      }
    }

    private void writeConfigFile(Path dir) throws IOException {
      if (configFileName != null) {
        Files.writeString(dir.resolve(configFileName), configFileText);
      }
    }
  }
}
