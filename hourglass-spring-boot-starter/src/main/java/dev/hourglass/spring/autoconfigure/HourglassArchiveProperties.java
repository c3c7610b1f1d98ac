package dev.hourglass.spring.autoconfigure;

import java.time.Duration;

/**
 * The archive of finished jobs in PostgreSQL, under {@code hourglass.archive}, as the server's
 * {@code --archive-*} settings configure it (module hourglass-archive).
 */
public class HourglassArchiveProperties {
  /**
   * Whether finished jobs are archived. The database is jdbc-url when set, else the application's
   * DataSource.
   */
  private boolean enabled;

  /**
   * JDBC URL of the archive's PostgreSQL, jdbc:postgresql://host:port/database, for a pool of its
   * own. When unset, the application's DataSource.
   */
  private String jdbcUrl;

  /** User of the archive database, with jdbc-url. */
  private String user;

  /** Password of the archive database, with jdbc-url. */
  private String password;

  /** How long a finished job is kept (at least 1m). */
  private Duration retention = Duration.ofDays(30);

  /**
   * Finished jobs each queue partition holds in Redis while the database is unreachable; past it
   * the oldest are dropped and counted (1 to 10000000).
   */
  private int outboxMax = 100_000;

  /**
   * Whether finished jobs are archived.
   *
   * @return the value bound from {@code hourglass.archive.enabled}
   */
  public boolean isEnabled() {
    return enabled;
  }

  /**
   * Binds {@code hourglass.archive.enabled}.
   *
   * @param enabled the value from the configuration
   */
  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  /**
   * JDBC URL of the archive database; null for the application's DataSource.
   *
   * @return the value bound from {@code hourglass.archive.jdbc-url}
   */
  public String getJdbcUrl() {
    return jdbcUrl;
  }

  /**
   * Binds {@code hourglass.archive.jdbc-url}.
   *
   * @param jdbcUrl the value from the configuration
   */
  public void setJdbcUrl(String jdbcUrl) {
    this.jdbcUrl = jdbcUrl;
  }

  /**
   * User of the archive database.
   *
   * @return the value bound from {@code hourglass.archive.user}
   */
  public String getUser() {
    return user;
  }

  /**
   * Binds {@code hourglass.archive.user}.
   *
   * @param user the value from the configuration
   */
  public void setUser(String user) {
    this.user = user;
  }

  /**
   * Password of the archive database.
   *
   * @return the value bound from {@code hourglass.archive.password}
   */
  public String getPassword() {
    return password;
  }

  /**
   * Binds {@code hourglass.archive.password}.
   *
   * @param password the value from the configuration
   */
  public void setPassword(String password) {
    this.password = password;
  }

  /**
   * How long a finished job is kept.
   *
   * @return the value bound from {@code hourglass.archive.retention}
   */
  public Duration getRetention() {
    return retention;
  }

  /**
   * Binds {@code hourglass.archive.retention}.
   *
   * @param retention the value from the configuration
   */
  public void setRetention(Duration retention) {
    this.retention = retention;
  }

  /**
   * Finished jobs each queue partition holds in Redis while the database is unreachable.
   *
   * @return the value bound from {@code hourglass.archive.outbox-max}
   */
  public int getOutboxMax() {
    return outboxMax;
  }

  /**
   * Binds {@code hourglass.archive.outbox-max}.
   *
   * @param outboxMax the value from the configuration
   */
  public void setOutboxMax(int outboxMax) {
    this.outboxMax = outboxMax;
  }
}
