package dev.hourglass.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * Configures a {@link RedisServer}; obtained from {@link RedisServer#builder()}. Not thread-safe;
 * build on one thread.
 *
 * <p>Defaults: in memory only, a free port chosen at the first start, a fresh temporary data
 * directory, a 10 second startup timeout, no extra arguments.
 */
public final class RedisServerBuilder {

  private static final Set<String> RESERVED_OPTIONS =
      Set.of("--port", "--bind", "--dir", "--daemonize", "--logfile");

  private boolean persistent;
  private Path dataDir;
  private final List<String> args = new ArrayList<>();
  private final List<String> launcher = new ArrayList<>();
  private int port;
  private String configFileName;
  private String configFileText;
  private Duration startupTimeout = Duration.ofSeconds(10);
  private IntSupplier portChooser = FreePort::find;
  private Path binary;

  RedisServerBuilder() {}

  /**
   * Turns on the append-only file, fsynced after every write ({@code --appendonly yes --appendfsync
   * always}), so data survives {@link RedisServer#stop()}, {@link RedisServer#kill()} and restarts.
   *
   * @return this builder
   */
  public RedisServerBuilder persistent() {
    this.persistent = true;
    return this;
  }

  /**
   * Uses {@code dir} as the working directory instead of a fresh temporary one. It is created if
   * missing and never deleted by this class, neither by {@link RedisServer#close()} nor at JVM
   * exit. Reuse a directory across servers to hand an AOF from one to the next. A persistent server
   * in such a directory is not killed by the JVM shutdown hook; its owner stops it (see {@link
   * RedisServer}).
   *
   * @param dir the data directory
   * @return this builder
   */
  public RedisServerBuilder dataDir(Path dir) {
    this.dataDir = Objects.requireNonNull(dir, "dir");
    return this;
  }

  /**
   * Appends raw {@code redis-server} command-line arguments after the built-in ones, e.g. {@code
   * args("--maxmemory", "10mb")}; later options override earlier ones. May be called repeatedly.
   * Options {@link RedisServer} manages ({@code --port}, {@code --bind}, {@code --dir}, {@code
   * --daemonize}, {@code --logfile}) are rejected; so is anything that stops {@code PING} from
   * working without a password.
   *
   * @param extraArgs the arguments
   * @return this builder
   * @throws IllegalArgumentException for a managed option
   */
  public RedisServerBuilder args(String... extraArgs) {
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
   * launcher("valgrind", "--tool=callgrind")}: the words go before the binary on the command line.
   * The tool must keep the process id ({@link RedisServer#pid()} is the tool's), as valgrind does.
   *
   * @param words the tool and its options
   * @return this builder
   */
  public RedisServerBuilder launcher(String... words) {
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
  public RedisServerBuilder port(int port) {
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port " + port);
    }
    this.port = port;
    return this;
  }

  /**
   * Replaces the probe that picks a free port on the first start (without a {@linkplain #port fixed
   * port}), e.g. for Redis Cluster nodes, whose cluster bus needs port + 10000 free too. A start
   * that finds the chosen port taken asks the chooser again, up to 5 times in all.
   *
   * @param chooser returns a port that was free on 127.0.0.1 when probed
   * @return this builder
   */
  public RedisServerBuilder portChooser(IntSupplier chooser) {
    this.portChooser = Objects.requireNonNull(chooser, "chooser");
    return this;
  }

  /**
   * Sets how long {@link RedisServer#start()} waits for {@code PING} to succeed.
   *
   * @param timeout a positive duration
   * @return this builder
   */
  public RedisServerBuilder startupTimeout(Duration timeout) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout " + timeout);
    }
    this.startupTimeout = timeout;
    return this;
  }

  /**
   * Writes {@code text} to {@code fileName} in the data directory when the server is built, and
   * passes that file to {@code redis-server} as its config file. For a sentinel, which keeps its
   * state by rewriting its config file and refuses to start without one.
   *
   * @param fileName the file's name inside the data directory
   * @param text the configuration
   * @return this builder
   */
  public RedisServerBuilder configFile(String fileName, String text) {
    this.configFileName = Objects.requireNonNull(fileName, "fileName");
    this.configFileText = Objects.requireNonNull(text, "text");
    return this;
  }

  /**
   * Runs {@code executable} instead of the default binary ({@link RedisExecutable#bundled()}): a
   * {@code redis-server} or {@code valkey-server}, such as {@link RedisExecutable#preferred()}'s.
   *
   * @param executable the server executable
   * @return this builder
   */
  public RedisServerBuilder binary(Path executable) {
    this.binary = Objects.requireNonNull(executable, "executable");
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
        return new RedisServer(settings(dataDir, false));
      }
      Path dir = Files.createTempDirectory("hourglass-redis-");
      ShutdownCleanup.registerDirectory(dir);
      writeConfigFile(dir);
      return new RedisServer(settings(dir, true));
    } catch (IOException e) {
      throw new RedisServerException("Cannot create the data directory or its config file", e);
    }
  }

  private ServerSettings settings(Path dir, boolean ownsDir) {
    return new ServerSettings(
        persistent,
        dir,
        ownsDir,
        args,
        launcher,
        configFileName,
        portChooser,
        startupTimeout,
        port,
        binary);
  }

  private void writeConfigFile(Path dir) throws IOException {
    if (configFileName != null) {
      Files.writeString(dir.resolve(configFileName), configFileText);
    }
  }
}
