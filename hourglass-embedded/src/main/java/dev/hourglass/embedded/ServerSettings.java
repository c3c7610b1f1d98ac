package dev.hourglass.embedded;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * The configuration of one {@link RedisServer}, fixed when {@link RedisServerBuilder#build()}
 * creates it, and the {@code redis-server} command line it gives.
 *
 * @param persistent whether the server writes an AOF with {@code appendfsync always}
 * @param dataDir the working directory: AOF, log and captured output
 * @param ownsDataDir whether the directory is a temporary one this package created (and deletes)
 * @param extraArgs arguments appended after the built-in ones
 * @param launcher words before the binary on the command line: a tool that runs it, such as
 *     valgrind
 * @param configFile a config file inside {@code dataDir} passed as the first argument, or null
 * @param portChooser picks a port for the first start when none is fixed
 * @param startupTimeout how long a start waits for {@code PING}
 * @param fixedPort the port from the builder, or 0 to choose one on the first start
 * @param binary the executable to run, or null for the default ({@link RedisBinary#path()})
 */
record ServerSettings(
    boolean persistent,
    Path dataDir,
    boolean ownsDataDir,
    List<String> extraArgs,
    List<String> launcher,
    String configFile,
    IntSupplier portChooser,
    Duration startupTimeout,
    int fixedPort,
    Path binary) {

  /** Name of the server's log file inside the data directory. */
  static final String LOG_FILE = "redis.log";

  /** Name of the file inside the data directory that captures standard output and error. */
  static final String OUTPUT_FILE = "redis.out";

  /** The directory of the multi-part AOF that Redis 7.0 and later (and Valkey) write. */
  static final String AOF_DIRECTORY = "appendonlydir";

  ServerSettings {
    extraArgs = List.copyOf(extraArgs);
    launcher = List.copyOf(launcher);
  }

  /**
   * Whether the JVM shutdown hook kills the server: not for a persistent server in a caller's
   * directory, whose owner stops it (see {@link RedisServer}).
   */
  boolean killAtExit() {
    return ownsDataDir || !persistent;
  }

  Path logFile() {
    return dataDir.resolve(LOG_FILE);
  }

  Path outputFile() {
    return dataDir.resolve(OUTPUT_FILE);
  }

  /** The executable this server runs. */
  Path executable() {
    return binary != null ? binary : RedisBinary.path();
  }

  /**
   * Refuses to run a Redis older than 7.0 on an AOF that Redis 7.0 or later (or Valkey) wrote in
   * the data directory: it reads only a single {@code appendonly.aof}, so it would start empty,
   * silently, over data it cannot see (a server that once ran on Valkey, then on the bundled Redis
   * 6.2). Redis 7.0 and later read the older single file and move it into {@value #AOF_DIRECTORY}.
   *
   * @throws RedisServerException if the binary cannot read the data directory's AOF
   */
  void checkAofReadable() {
    if (!persistent || !Files.isDirectory(dataDir.resolve(AOF_DIRECTORY))) {
      return;
    }
    RedisExecutable executable = RedisExecutable.of(executable(), "checked against the AOF");
    if (executable.major() < 7) {
      throw new RedisServerException(
          "The AOF in "
              + dataDir.toAbsolutePath().resolve(AOF_DIRECTORY)
              + " was written by Redis 7.0 or later (or Valkey); "
              + executable.describe()
              + " cannot read it and would start empty. Run a Redis 7.0 or later or a Valkey on"
              + " this directory (-D"
              + RedisBinary.OVERRIDE_PROPERTY
              + "=/path/to/server, or the server's --embedded-redis)");
    }
  }

  /** The command that runs the server on {@code port}. */
  List<String> commandLine(int port) {
    Path dir = dataDir.toAbsolutePath();
    List<String> command = new ArrayList<>(launcher);
    command.add(executable().toString());
    if (configFile != null) {
      // redis-server only reads a config file given as the first argument.
      command.add(dir.resolve(configFile).toString());
    }
    command.addAll(
        List.of(
            "--port",
            Integer.toString(port),
            "--bind",
            RedisServer.HOST,
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
}
