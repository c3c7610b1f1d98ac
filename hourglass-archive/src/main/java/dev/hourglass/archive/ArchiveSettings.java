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

  public static Builder builder() {
    return new Builder();
  }

  /** The user's own pool, if given; else the archive builds one from {@link #jdbcUrl()}. */
  public Optional<DataSource> dataSource() {
    return dataSource;
  }

  public String jdbcUrl() {
    return jdbcUrl;
  }

  public String user() {
    return user;
  }

  String password() {
    return password;
  }

  /** Rows older than this are deleted. */
  public Duration retention() {
    return retention;
  }

  /** The bound of each partition's outbox in Redis, past which the oldest records are dropped. */
  public int outboxMaxPerPartition() {
    return outboxMaxPerPartition;
  }

  /** The most records read from one partition and stored in one transaction. */
  public int batchSize() {
    return batchSize;
  }

  /** How long the archiver waits when every outbox was empty. */
  public Duration idle() {
    return idle;
  }

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

    /** A JDBC URL ({@code jdbc:postgresql://host:port/db}) and its credentials. */
    public Builder jdbc(String url, String user, String password) {
      this.jdbcUrl = url;
      this.user = user;
      this.password = password;
      return this;
    }

    /** A pool of the user's own instead of a JDBC URL; the archive does not close it. */
    public Builder dataSource(DataSource dataSource) {
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
      return this;
    }

    public Builder retention(Duration retention) {
      this.retention = retention;
      return this;
    }

    public Builder outboxMaxPerPartition(int max) {
      this.outboxMaxPerPartition = max;
      return this;
    }

    public Builder batchSize(int batchSize) {
      this.batchSize = batchSize;
      return this;
    }

    public Builder idle(Duration idle) {
      this.idle = idle;
      return this;
    }

    public Builder listener(ArchiveListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
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
