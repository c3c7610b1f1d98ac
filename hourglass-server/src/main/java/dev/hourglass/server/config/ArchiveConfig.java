package dev.hourglass.server.config;

import dev.hourglass.archive.ArchiveSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The archive database's settings ({@code archive-*}).
 *
 * @param url the JDBC URL, {@code jdbc:postgresql://...}
 * @param user the database user, if not in the URL
 * @param password the password, if any: never logged or shown ({@link #toString()} hides it)
 * @param retention how long rows are kept
 * @param outboxMax records each partition's outbox holds in Redis at most
 */
public record ArchiveConfig(
    String url,
    Optional<String> user,
    Optional<String> password,
    Duration retention,
    int outboxMax) {

  /** The archive settings among the resolved values; empty without {@code archive-url}. */
  static Optional<ArchiveConfig> of(Map<Setting, String> values) {
    String url = values.get(Setting.ARCHIVE_URL);
    long days = ConfigLoader.number(Setting.ARCHIVE_RETENTION_DAYS, values, 1, 36_500);
    long outboxMax = ConfigLoader.number(Setting.ARCHIVE_OUTBOX_MAX, values, 1, 10_000_000);
    if (url == null || url.isBlank()) {
      for (Setting s : List.of(Setting.ARCHIVE_USER, Setting.ARCHIVE_PASSWORD)) {
        if (values.containsKey(s)) {
          throw new ConfigException(s.names() + " is given without " + Setting.ARCHIVE_URL.names());
        }
      }
      return Optional.empty();
    }
    if (!url.startsWith("jdbc:postgresql://")) {
      throw new ConfigException(
          Setting.ARCHIVE_URL.names()
              + " must be a jdbc:postgresql://host:port/database URL, was '"
              + ArchiveSettings.mask(url)
              + "'");
    }
    return Optional.of(
        new ArchiveConfig(
            url,
            Optional.ofNullable(values.get(Setting.ARCHIVE_USER)),
            Optional.ofNullable(values.get(Setting.ARCHIVE_PASSWORD)),
            Duration.ofDays(days),
            (int) outboxMax));
  }

  @Override
  public String toString() {
    return "ArchiveConfig[url="
        + ArchiveSettings.mask(url)
        + ", user="
        + user.orElse("")
        + ", password="
        + (password.isPresent() ? "***" : "")
        + ", retention="
        + retention
        + ", outboxMax="
        + outboxMax
        + "]";
  }
}
