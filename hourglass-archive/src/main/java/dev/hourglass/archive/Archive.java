package dev.hourglass.archive;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hourglass.Hourglass;
import dev.hourglass.Outbox;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * Finished jobs kept in PostgreSQL. {@link #start} migrates the schema (Flyway, its own history
 * table {@code hourglass_schema_history}, so it can share a database with an application), turns
 * the outbox on in Redis, and runs the archiver (outbox to table) and the retention (deletes old
 * rows) in the background; {@link #history()} queries the table.
 *
 * <pre>{@code
 * Archive archive = Archive.start(hourglass, ArchiveSettings.builder()
 *     .jdbc("jdbc:postgresql://db:5432/app", "app", secret).build());
 * HistoryPage page = archive.history().page("emails", Optional.empty(), Optional.empty(), 50,
 *     Optional.empty());
 * }</pre>
 */
public final class Archive implements AutoCloseable {
  private final HikariDataSource ownPool; // null when the user gave a DataSource
  private final History history;
  private final Archiver archiver;
  private final RetentionJanitor retention;

  private Archive(
      Hourglass hourglass, ArchiveSettings settings, DataSource ds, HikariDataSource own) {
    this.ownPool = own;
    JobHistoryTable table = new JobHistoryTable(ds);
    this.history = new History(table);
    this.archiver = new Archiver(hourglass, table, settings);
    this.retention =
        new RetentionJanitor(table, settings.retention(), settings.listener(), Clock.systemUTC());
  }

  /**
   * Migrates the schema, turns the outbox on with the settings' bound, and starts the archiver and
   * the retention.
   *
   * @param hourglass the client whose queues' finished jobs are archived
   * @param settings the database, bounds and timings
   * @return the running archive; close it to stop (the pool it built is closed with it)
   * @throws ArchiveException when the database cannot be reached or migrated
   * @throws dev.hourglass.RedisUnavailableException when Redis cannot turn the outbox on
   */
  public static Archive start(Hourglass hourglass, ArchiveSettings settings) {
    HikariDataSource own = settings.dataSource().isPresent() ? null : pool(settings);
    DataSource ds = settings.dataSource().orElse(own);
    try {
      migrate(ds);
      hourglass.outbox().enable(settings.outboxMaxPerPartition());
      Archive archive = new Archive(hourglass, settings, ds, own);
      archive.archiver.start();
      archive.retention.start();
      return archive;
    } catch (RuntimeException e) {
      if (own != null) {
        own.close();
      }
      throw e;
    }
  }

  /** Creates or migrates the archive's tables in the database. */
  static void migrate(DataSource ds) {
    try {
      Flyway.configure()
          .dataSource(ds)
          .locations("classpath:dev/hourglass/archive/migration")
          .table("hourglass_schema_history")
          // A database that already holds the application's tables is baselined below V1, so
          // that V1 still runs: Flyway's default baseline (1) would mark it done, and the table
          // would never be created.
          .baselineOnMigrate(true)
          .baselineVersion("0")
          .load()
          .migrate();
    } catch (RuntimeException e) {
      throw new ArchiveException("migrating the archive's schema", e);
    }
  }

  private static HikariDataSource pool(ArchiveSettings s) {
    HikariConfig c = new HikariConfig();
    c.setPoolName("hourglass-archive");
    c.setJdbcUrl(s.jdbcUrl());
    c.setUsername(s.user());
    c.setPassword(s.password());
    c.setMaximumPoolSize(4);
    // pgjdbc sends a batch of inserts as multi-row INSERTs: several times the rows per second.
    c.addDataSourceProperty("reWriteBatchedInserts", "true");
    c.setConnectionTimeout(5_000); // a database that is down fails a pass in seconds, not 30
    // Start even while the database is down: the outbox holds records until it is back.
    c.setInitializationFailTimeout(-1);
    return new HikariDataSource(c);
  }

  /**
   * Queries of the archived jobs.
   *
   * @return the archive's history, safe to use from any thread
   */
  public History history() {
    return history;
  }

  /**
   * Stores every record waiting in the queue's outbox now, on the caller's thread: before a queue
   * is deleted, as deleting it deletes its outbox.
   *
   * @param queue the queue name
   * @throws ArchiveException when the database cannot be written
   * @throws dev.hourglass.RedisUnavailableException when Redis cannot be read
   */
  public void drain(String queue) {
    try {
      archiver.drainQueue(queue);
    } catch (SQLException e) {
      throw new ArchiveException("archiving the outbox of queue " + queue, e);
    }
  }

  /**
   * Each queue's outbox (waiting and dropped records) as of the archiver's last scan. Sends
   * nothing.
   *
   * @return the sizes by queue name; none before the first scan
   */
  public Map<String, Outbox.OutboxSize> outboxSizes() {
    return archiver.sizes();
  }

  /**
   * Deletes the rows older than the retention now (it also runs once a minute).
   *
   * @return how many rows were deleted
   * @throws ArchiveException when the database cannot be written
   */
  public long deleteExpired() {
    try {
      return retention.deleteExpired();
    } catch (SQLException e) {
      throw new ArchiveException("deleting rows past the retention", e);
    }
  }

  /** Stops the archiver and the retention, and closes the pool the archive built. */
  @Override
  public void close() {
    archiver.stop();
    retention.stop();
    if (ownPool != null) {
      ownPool.close();
    }
  }
}
