package dev.hourglass.server.config;

import dev.hourglass.QueueSettings;
import java.util.Locale;

/**
 * The server's settings. Each is read from a flag ({@code --bind}), else an environment variable
 * ({@code HOURGLASS_BIND}), else the YAML file ({@code bind:}), else its default.
 */
public enum Setting {
  BIND("bind", "127.0.0.1", "Address to listen on."),
  PORT("port", "8080", "Port to listen on."),
  REDIS(
      "redis",
      null,
      "Redis to use: redis://, rediss:// (TLS), redis-sentinel:// URI, or"
          + " redis-cluster://host:port[,host:port...] for a Redis Cluster."
          + " Unset: start an embedded Redis with its data in --data-dir."),
  DATA_DIR("data-dir", "./data", "Directory of the embedded Redis's data (AOF)."),
  EMBEDDED_REDIS(
      "embedded-redis",
      "auto",
      "The embedded Redis's executable: auto (an installed valkey-server 8 or later on PATH,"
          + " else the Redis 6.2 bundled in the jar), bundled, or the path of a redis-server or"
          + " valkey-server. The JVM property hourglass.redis.server overrides auto and bundled."),
  PREFIX("prefix", "hg", "Prefix of every Redis key."),
  MAX_PAYLOAD_BYTES("max-payload-bytes", "1048576", "Largest job payload accepted, in bytes."),
  MAX_BODY_BYTES("max-body-bytes", "16777216", "Largest request body accepted, in bytes."),
  COMPRESS_ABOVE(
      "compress-above",
      Integer.toString(QueueSettings.DEFAULT_COMPRESS_ABOVE),
      "Payloads of at least this many bytes are stored compressed (zstd, with a dictionary"
          + " trained per queue) when that makes them smaller; 0: never. A queue's compressAbove"
          + " overrides it."),
  MAX_CONNECTIONS(
      "max-connections",
      "4096",
      "Most HTTP connections open at once; past it new connections wait to be accepted until one"
          + " closes."),
  MAX_WAITING_CLAIMS(
      "max-waiting-claims",
      "2048",
      "Most long-poll claims (waitMs > 0) waiting at once; past it a claim is refused with 429"
          + " rate_limited."),
  MAX_WAITING_CLAIMS_PER_CLIENT(
      "max-waiting-claims-per-client",
      "512",
      "Most long-poll claims one client may have waiting at once (a client is its token with"
          + " auth on, else its address); past it its claim is refused with 429 rate_limited."),
  SHUTDOWN_TIMEOUT_MS(
      "shutdown-timeout-ms",
      "30000",
      "On SIGTERM, how long requests in flight and push deliveries may take to finish."),
  ADMIN_TOKEN(
      "admin-token",
      null,
      "A token with the admin role on every queue (at least 16 characters); turns auth on. More"
          + " tokens: the YAML file's tokens list."),
  ALLOW_UNAUTHENTICATED(
      "allow-unauthenticated",
      "false",
      "Allow binding to a non-loopback address with auth off (no tokens). Refused otherwise."),
  LOG_FORMAT(
      "log-format",
      "auto",
      "Log lines as json (one object per line), text, or auto: text when standard output is a"
          + " terminal, json when it is not."),
  LOG_LEVEL("log-level", "info", "Log level: error, warn, info or debug."),
  ARCHIVE_URL(
      "archive-url",
      null,
      "PostgreSQL database that keeps finished jobs (jdbc:postgresql://host:port/db); turns the"
          + " archive and the history routes on. Unset: no archive."),
  ARCHIVE_USER("archive-user", null, "User of the archive database."),
  ARCHIVE_PASSWORD(
      "archive-password", null, "Password of the archive database (never logged or shown)."),
  ARCHIVE_RETENTION_DAYS(
      "archive-retention-days", "30", "Days the archive keeps a finished job (1 to 36500)."),
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

  /** The YAML key and the flag without its dashes, e.g. {@code data-dir}. */
  public String key() {
    return key;
  }

  public String flag() {
    return "--" + key;
  }

  public String env() {
    return "HOURGLASS_" + key.toUpperCase(Locale.ROOT).replace('-', '_');
  }

  public String defaultValue() {
    return defaultValue;
  }

  public String help() {
    return help;
  }

  /** How the setting is named in error messages: every way it can be given. */
  public String names() {
    return flag() + " / " + env() + " / " + key + ":";
  }
}
