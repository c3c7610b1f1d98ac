package dev.hourglass.server;

import dev.hourglass.embedded.RedisExecutable;
import dev.hourglass.embedded.RedisServer;
import dev.hourglass.server.config.ServerConfig;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The embedded Redis of a server run without {@code --redis}: its executable as {@code
 * --embedded-redis} says (by default an installed Valkey 8 or later, else the bundled Redis 6.2;
 * see {@link RedisExecutable#preferred()}), with an AOF fsynced on every write in the data
 * directory. The server's first log line ("Hourglass listening on ...") says which executable it
 * runs and why ({@link #describe}).
 */
final class EmbeddedRedis {
  private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(2);

  private EmbeddedRedis() {}

  /** The executable {@code --embedded-redis} names: {@code auto}, {@code bundled} or a path. */
  static RedisExecutable executable(String setting) {
    return switch (setting) {
      case "auto" -> RedisExecutable.preferred();
      case "bundled" -> RedisExecutable.bundled();
      default -> RedisExecutable.of(Path.of(setting), "set by --embedded-redis");
    };
  }

  /**
   * E.g. {@code embedded Valkey 8.0.1 redis://127.0.0.1:41234 (AOF in /srv/data;
   * /usr/bin/valkey-server: installed valkey-server on PATH, preferred to ...)}.
   */
  static String describe(RedisExecutable executable, RedisServer redis, Path dataDir) {
    return "embedded "
        + executable.product()
        + " "
        + executable.version()
        + " "
        + redis.uri()
        + " (AOF in "
        + dataDir.toAbsolutePath()
        + "; "
        + executable.path()
        + ": "
        + executable.reason()
        + ")";
  }

  /** Starts it; returns once it answers. */
  static RedisServer start(ServerConfig config, RedisExecutable executable) {
    RedisServer redis =
        RedisServer.builder()
            .binary(executable.path())
            .persistent()
            .dataDir(config.dataDir())
            .startupTimeout(STARTUP_TIMEOUT)
            .build();
    redis.start();
    return redis;
  }
}
