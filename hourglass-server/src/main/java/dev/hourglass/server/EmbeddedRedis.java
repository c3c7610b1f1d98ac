package dev.hourglass.server;

import dev.hourglass.embedded.RedisExecutable;
import dev.hourglass.embedded.RedisServer;
import dev.hourglass.server.config.ServerConfig;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded Redis of a server run without {@code --redis}: its executable as {@code
 * --embedded-redis} says (by default an installed Valkey 8 or later, else the bundled Redis 6.2;
 * see {@link RedisExecutable#preferred()}), with an AOF fsynced on every write in the data
 * directory. Logs which executable it runs and why.
 */
final class EmbeddedRedis {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedRedis.class);
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

  /** Starts it; returns once it answers. */
  static RedisServer start(ServerConfig config, RedisExecutable executable) {
    log.info("Embedded Redis: {}, {}", executable.describe(), executable.reason());
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
