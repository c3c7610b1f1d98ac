package dev.hourglass.server.config;

import java.time.Duration;
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

  @Override
  public String toString() {
    return "ArchiveConfig[url="
        + url.replaceAll("password=[^&]*", "password=***")
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
