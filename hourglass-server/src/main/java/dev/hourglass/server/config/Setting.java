package dev.hourglass.server.config;

import dev.hourglass.QueueSettings;
import java.util.Locale;

/**
 * The server's settings. Each is read from a flag ({@code --bind}), else an environment variable
 * ({@code HOURGLASS_BIND}), else the YAML file ({@code bind:}), else its default.
 */
public enum Setting {
  /** The address to listen on. */
  BIND("bind", "127.0.0.1", "Address to listen on."),
  /** The HTTP port. */
  PORT("port", "8080", "Port to listen on."),
  /** The external Redis (standalone, Sentinel or Cluster URI); unset, the embedded one. */
  REDIS(
      "redis",
      null,
      "Redis to use: redis://, rediss:// (TLS), redis-sentinel:// URI, or"
          + " redis-cluster://host:port[,host:port...] for a Redis Cluster."
          + " Unset: start an embedded Redis with its data in --data-dir."),
  /** The embedded Redis's data directory. */
  DATA_DIR("data-dir", "./data", "Directory of the embedded Redis's data (AOF)."),
  /** The embedded Redis's executable: auto, bundled or a path. */
  EMBEDDED_REDIS(
      "embedded-redis",
      "auto",
      "The embedded Redis's executable: auto (an installed valkey-server 8 or later on PATH,"
          + " else the Redis 6.2 bundled in the jar), bundled, or the path of a redis-server or"
          + " valkey-server. The JVM property hourglass.redis.server overrides auto and bundled."),
  /** The prefix of every Redis key. */
  PREFIX("prefix", "hg", "Prefix of every Redis key."),
  /** The largest job payload accepted. */
  MAX_PAYLOAD_BYTES("max-payload-bytes", "1048576", "Largest job payload accepted, in bytes."),
  /** The largest request body accepted. */
  MAX_BODY_BYTES("max-body-bytes", "16777216", "Largest request body accepted, in bytes."),
  /** The payload size from which payloads are stored compressed; 0 never. */
  COMPRESS_ABOVE(
      "compress-above",
      Integer.toString(QueueSettings.DEFAULT_COMPRESS_ABOVE),
      "Payloads of at least this many bytes are stored compressed (zstd, with a dictionary"
          + " trained per queue) when that makes them smaller; 0: never. A queue's compressAbove"
          + " overrides it."),
  /** The most HTTP connections open at once. */
  MAX_CONNECTIONS(
      "max-connections",
      "4096",
      "Most HTTP connections open at once; past it new connections wait to be accepted until one"
          + " closes."),
  /** The most long-poll claims waiting at once, over all clients. */
  MAX_WAITING_CLAIMS(
      "max-waiting-claims",
      "2048",
      "Most long-poll claims (waitMs > 0) waiting at once; past it a claim is refused with 429"
          + " rate_limited."),
  /** The most long-poll claims one client may have waiting. */
  MAX_WAITING_CLAIMS_PER_CLIENT(
      "max-waiting-claims-per-client",
      "512",
      "Most long-poll claims one client may have waiting at once (a client is its token with"
          + " auth on, else its address); past it its claim is refused with 429 rate_limited."),
  /** How long requests and push deliveries in flight may take to finish on SIGTERM. */
  SHUTDOWN_TIMEOUT_MS(
      "shutdown-timeout-ms",
      "30000",
      "On SIGTERM, how long requests in flight and push deliveries may take to finish."),
  /** A token with the admin role on every queue; turns auth on. */
  ADMIN_TOKEN(
      "admin-token",
      null,
      "A token with the admin role on every queue (at least 16 characters); turns auth on. More"
          + " tokens: the YAML file's tokens list."),
  /** Whether a non-loopback bind without tokens is allowed. */
  ALLOW_UNAUTHENTICATED(
      "allow-unauthenticated",
      "false",
      "Allow binding to a non-loopback address with auth off (no tokens). Refused otherwise."),
  /** The log format: json, text, or auto. */
  LOG_FORMAT(
      "log-format",
      "auto",
      "Log lines as json (one object per line), text, or auto: text when standard output is a"
          + " terminal, json when it is not."),
  /** The log level. */
  LOG_LEVEL("log-level", "info", "Log level: error, warn, info or debug."),
  /** The archive's PostgreSQL JDBC URL; unset, no archive. */
  ARCHIVE_URL(
      "archive-url",
      null,
      "PostgreSQL database that keeps finished jobs (jdbc:postgresql://host:port/db); turns the"
          + " archive and the history routes on. Unset: no archive."),
  /** The archive database's user. */
  ARCHIVE_USER("archive-user", null, "User of the archive database."),
  /** The archive database's password. */
  ARCHIVE_PASSWORD(
      "archive-password", null, "Password of the archive database (never logged or shown)."),
  /** How many days the archive keeps a finished job. */
  ARCHIVE_RETENTION_DAYS(
      "archive-retention-days", "30", "Days the archive keeps a finished job (1 to 36500)."),
  /** How many finished jobs a queue partition's outbox holds while the archive is down. */
  ARCHIVE_OUTBOX_MAX(
      "archive-outbox-max",
      "100000",
      "Finished jobs each queue partition holds in Redis while the archive database is"
          + " unreachable; past it the oldest are dropped and counted.");

  private final String key;
  private final String defaultValue;
  private final String help;

  Setting(String key, String defaultValue, String help) {
    this.key = key;
    this.defaultValue = defaultValue;
    this.help = help;
  }

  /**
   * The YAML key and the flag without its dashes.
   *
   * @return e.g. {@code data-dir}
   */
  public String key() {
    return key;
  }

  /**
   * The command-line flag.
   *
   * @return e.g. {@code --data-dir}
   */
  public String flag() {
    return "--" + key;
  }

  /**
   * The environment variable.
   *
   * @return e.g. {@code HOURGLASS_DATA_DIR}
   */
  public String env() {
    return "HOURGLASS_" + key.toUpperCase(Locale.ROOT).replace('-', '_');
  }

  /**
   * The value when no flag, variable or YAML key gives one.
   *
   * @return the default as text, or null when the setting has none
   */
  public String defaultValue() {
    return defaultValue;
  }

  /**
   * What {@code hourglass server --help} says of the setting.
   *
   * @return one or more sentences
   */
  public String help() {
    return help;
  }

  /**
   * How the setting is named in error messages: every way it can be given.
   *
   * @return e.g. {@code --data-dir / HOURGLASS_DATA_DIR / data-dir:}
   */
  public String names() {
    return flag() + " / " + env() + " / " + key + ":";
  }
}
