package dev.hourglass.server.config;

import dev.hourglass.server.auth.TokenRule;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The server's resolved, validated configuration (see {@link Setting} for each field and {@link
 * ConfigLoader} for where it comes from).
 *
 * @param redisUri the external Redis; empty to run the embedded one in {@code dataDir}
 * @param embeddedRedis the embedded Redis's executable: {@code auto}, {@code bundled} or a path
 * @param archive the archive database; empty for none
 */
public record ServerConfig(
    String bind,
    int port,
    Optional<String> redisUri,
    Path dataDir,
    String embeddedRedis,
    String prefix,
    int maxPayloadBytes,
    int compressAbove,
    long maxBodyBytes,
    Limits limits,
    Duration shutdownTimeout,
    List<TokenRule> tokens,
    boolean allowUnauthenticated,
    String logFormat,
    String logLevel,
    Optional<ArchiveConfig> archive) {

  /**
   * Loopback defaults with an embedded Redis in {@code dataDir} on a given port; for tests, which
   * run the bundled binary (or {@code -Dhourglass.redis.server}'s), whatever is installed.
   *
   * @param dataDir the embedded Redis's data directory
   * @param port the HTTP port, 0 for a free one
   * @return the configuration
   */
  public static ServerConfig embedded(Path dataDir, int port) {
    return ConfigLoader.load(
        java.util.Map.of(
            Setting.DATA_DIR.key(),
            dataDir.toString(),
            Setting.PORT.key(),
            Integer.toString(port),
            Setting.EMBEDDED_REDIS.key(),
            "bundled"),
        java.util.Map.of(),
        null);
  }

  /**
   * This configuration with an archive database; for tests.
   *
   * @param archiveConfig the archive database and its settings
   * @return a copy with the archive on
   */
  public ServerConfig withArchive(ArchiveConfig archiveConfig) {
    return new ServerConfig(
        bind,
        port,
        redisUri,
        dataDir,
        embeddedRedis,
        prefix,
        maxPayloadBytes,
        compressAbove,
        maxBodyBytes,
        limits,
        shutdownTimeout,
        tokens,
        allowUnauthenticated,
        logFormat,
        logLevel,
        Optional.of(archiveConfig));
  }

  /**
   * This configuration with another Redis and token list; for tests.
   *
   * @param redis the external Redis URI, or empty for the embedded one
   * @param tokenRules the tokens; none turns auth off
   * @return a copy with them
   */
  public ServerConfig with(Optional<String> redis, List<TokenRule> tokenRules) {
    return new ServerConfig(
        bind,
        port,
        redis,
        dataDir,
        embeddedRedis,
        prefix,
        maxPayloadBytes,
        compressAbove,
        maxBodyBytes,
        limits,
        shutdownTimeout,
        List.copyOf(tokenRules),
        allowUnauthenticated,
        logFormat,
        logLevel,
        archive);
  }
}
