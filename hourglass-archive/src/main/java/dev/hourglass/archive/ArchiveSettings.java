package dev.hourglass.archive;

import dev.hourglass.InvalidArgumentException;
import dev.hourglass.Outbox;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * How the archive reaches its database and how it drains and trims. Immutable; built and validated
 * by {@link #builder()}.
 */
public final class ArchiveSettings {
  private final Optional<DataSource> dataSource;
  private final String jdbcUrl;
  private final String user;
  private final String password;
  private final Duration retention;
  private final int outboxMaxPerPartition;
  private final int batchSize;
  private final Duration idle;
  private final ArchiveListener listener;

  private ArchiveSettings(Builder b) {
    this.dataSource = Optional.ofNullable(b.dataSource);
    this.jdbcUrl = b.jdbcUrl;
    this.user = b.user;
    this.password = b.password;
    this.retention = b.retention;
    this.outboxMaxPerPartition = b.outboxMaxPerPartition;
    this.batchSize = b.batchSize;
    this.idle = b.idle;
    this.listener = b.listener;
  }

  /**
   * A builder with a retention of 30 days, the outbox bound {@link
   * Outbox#DEFAULT_MAX_PER_PARTITION}, batches of 1000, an idle wait of 500 ms and no listener; the
   * database is required.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The user's own pool, if given; else the archive builds one from {@link #jdbcUrl()}.
   *
   * @return the pool, or empty
   */
  public Optional<DataSource> dataSource() {
    return dataSource;
  }

  /**
   * A JDBC URL as logs and failures may show it: a {@code password=} parameter's value replaced by
   * {@code ***}.
   *
   * @param jdbcUrl any text
   * @return the text with every {@code password=} value masked
   */
  public static String mask(String jdbcUrl) {
    return jdbcUrl.replaceAll("password=[^&]*", "password=***");
  }

  /**
   * The JDBC URL the archive's own pool connects to.
   *
   * @return {@code jdbc:postgresql://...}, or null when a {@link #dataSource()} is given
   */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  /**
   * The database user of the archive's own pool.
   *
   * @return the user, or null when a {@link #dataSource()} is given
   */
  public String user() {
    return user;
  }

  String password() {
    return password;
  }

  /**
   * Rows older than this are deleted.
   *
   * @return at least one minute
   */
  public Duration retention() {
    return retention;
  }

  /**
   * The bound of each partition's outbox in Redis, past which the oldest records are dropped.
   *
   * @return 1 to 10,000,000
   */
  public int outboxMaxPerPartition() {
    return outboxMaxPerPartition;
  }

  /**
   * The most records read from one partition and stored in one transaction.
   *
   * @return 1 to 10,000
   */
  public int batchSize() {
    return batchSize;
  }

  /**
   * How long the archiver waits when every outbox was empty.
   *
   * @return at least 1 ms
   */
  public Duration idle() {
    return idle;
  }

  /**
   * What the archiver reports to, for metrics.
   *
   * @return the listener, {@link ArchiveListener#none()} by default
   */
  public ArchiveListener listener() {
    return listener;
  }

  /** Builds {@link ArchiveSettings}; {@link #build()} validates. */
  public static final class Builder {
    private DataSource dataSource;
    private String jdbcUrl;
    private String user;
    private String password;
    private Duration retention = Duration.ofDays(30);
    private int outboxMaxPerPartition = Outbox.DEFAULT_MAX_PER_PARTITION;
    private int batchSize = 1000;
    private Duration idle = Duration.ofMillis(500);
    private ArchiveListener listener = ArchiveListener.none();

    private Builder() {}

    /**
     * A JDBC URL ({@code jdbc:postgresql://host:port/db}) and its credentials, for a pool the
     * archive builds and closes.
     *
     * @param url {@code jdbc:postgresql:...}, checked by {@link #build()}
     * @param user the database user
     * @param password the user's password
     * @return this builder
     */
    public Builder jdbc(String url, String user, String password) {
      this.jdbcUrl = url;
      this.user = user;
      this.password = password;
      return this;
    }

    /**
     * A pool of the user's own instead of a JDBC URL; the archive does not close it.
     *
     * @param dataSource the pool
     * @return this builder
     * @throws NullPointerException when it is null
     */
    public Builder dataSource(DataSource dataSource) {
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
      return this;
    }

    /**
     * Rows older than this are deleted (default 30 days).
     *
     * @param retention at least one minute, checked by {@link #build()}
     * @return this builder
     */
    public Builder retention(Duration retention) {
      this.retention = retention;
      return this;
    }

    /**
     * The bound of each partition's outbox in Redis (default {@link
     * Outbox#DEFAULT_MAX_PER_PARTITION}).
     *
     * @param max 1 to 10,000,000, checked by {@link #build()}
     * @return this builder
     */
    public Builder outboxMaxPerPartition(int max) {
      this.outboxMaxPerPartition = max;
      return this;
    }

    /**
     * The most records read from one partition and stored in one transaction (default 1000).
     *
     * @param batchSize 1 to 10,000, checked by {@link #build()}
     * @return this builder
     */
    public Builder batchSize(int batchSize) {
      this.batchSize = batchSize;
      return this;
    }

    /**
     * How long the archiver waits when every outbox was empty (default 500 ms).
     *
     * @param idle at least 1 ms, checked by {@link #build()}
     * @return this builder
     */
    public Builder idle(Duration idle) {
      this.idle = idle;
      return this;
    }

    /**
     * What the archiver reports to, for metrics (default none).
     *
     * @param listener the listener
     * @return this builder
     * @throws NullPointerException when it is null
     */
    public Builder listener(ArchiveListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * Validates and builds.
     *
     * @return the settings
     * @throws InvalidArgumentException for a missing database, a retention under one minute, a
     *     bound outside 1..10,000,000, a batch size outside 1..10,000 or an idle wait under 1 ms
     */
    public ArchiveSettings build() {
      if (dataSource == null && (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:postgresql:"))) {
        throw new InvalidArgumentException(
            "url", "must be a jdbc:postgresql:// URL (or give a DataSource), was " + jdbcUrl);
      }
      if (retention == null || retention.compareTo(Duration.ofMinutes(1)) < 0) {
        throw new InvalidArgumentException("retention", "must be at least 1 minute");
      }
      if (outboxMaxPerPartition < 1 || outboxMaxPerPartition > 10_000_000) {
        throw new InvalidArgumentException("outboxMax", "must be 1 to 10000000");
      }
      if (batchSize < 1 || batchSize > 10_000) {
        throw new InvalidArgumentException("batchSize", "must be 1 to 10000");
      }
      if (idle == null || idle.toMillis() < 1) {
        throw new InvalidArgumentException("idle", "must be at least 1 ms");
      }
      return new ArchiveSettings(this);
    }
  }
}
