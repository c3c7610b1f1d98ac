package dev.hourglass.archive;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loop that deletes rows older than the retention, once a minute, in batches of {@value #BATCH}
 * rows so that no statement holds locks on a large part of the table.
 */
final class RetentionJanitor {
  private static final Logger log = LoggerFactory.getLogger(RetentionJanitor.class);
  static final int BATCH = 10_000;

  private final JobHistoryTable table;
  private final Duration retention;
  private final ArchiveListener listener;
  private final Clock clock;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "hourglass-archive-retention");
            t.setDaemon(true);
            return t;
          });

  RetentionJanitor(
      JobHistoryTable table, Duration retention, ArchiveListener listener, Clock clock) {
    this.table = table;
    this.retention = retention;
    this.listener = listener;
    this.clock = clock;
  }

  void start() {
    timer.scheduleWithFixedDelay(this::deleteExpiredLogged, 0, 1, TimeUnit.MINUTES);
  }

  /** Deletes every row older than the retention now; returns how many. */
  long deleteExpired() throws SQLException {
    java.time.Instant cutoff = clock.instant().minus(retention);
    long total = 0;
    int n;
    do {
      n = table.deleteOlderThan(cutoff, BATCH);
      total += n;
      if (n > 0) {
        listener.expired(n);
      }
    } while (n == BATCH);
    return total;
  }

  private void deleteExpiredLogged() {
    try {
      deleteExpired();
    } catch (SQLException | RuntimeException e) {
      listener.failed(e);
      log.warn(
          "archive: deleting rows past the retention failed; next try in a minute: {}",
          e.toString());
    }
  }

  void stop() {
    timer.shutdownNow();
  }
}
