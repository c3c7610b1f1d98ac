package dev.hourglass.archive;

import dev.hourglass.FinishedJob;
import dev.hourglass.Hourglass;
import dev.hourglass.Outbox;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loop that moves finished jobs from every queue's outbox in Redis into the database: for each
 * partition it reads the oldest records, stores them in one transaction, and only after the commit
 * removes them from Redis. A crash between the commit and the removal stores them again, which the
 * table's key makes a no-op. It runs again at once while a partition had a full batch, and waits
 * {@link ArchiveSettings#idle()} when every outbox was drained. A failure (database or Redis) is
 * logged once when it starts and once when it ends, and retried with a backoff up to 5 s; records
 * stay in Redis meanwhile.
 */
final class Archiver implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(Archiver.class);
  private static final long RESCAN_NANOS = TimeUnit.SECONDS.toNanos(3);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);
  private static final int IDLE_BACKOFF = 8;

  private final Hourglass hourglass;
  private final JobHistoryTable table;
  private final ArchiveSettings settings;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final ConcurrentMap<String, Outbox.OutboxSize> sizes = new ConcurrentHashMap<>();
  private final Thread thread;
  private Map<String, Integer> partitions = Map.of(); // queue -> partitions; archiver thread only
  private long scannedAt;
  private boolean failing;

  Archiver(Hourglass hourglass, JobHistoryTable table, ArchiveSettings settings) {
    this.hourglass = hourglass;
    this.table = table;
    this.settings = settings;
    this.thread = new Thread(this, "hourglass-archiver");
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** The outbox sizes of every queue as of the last scan (every few seconds). */
  Map<String, Outbox.OutboxSize> sizes() {
    return Map.copyOf(sizes);
  }

  @Override
  public void run() {
    Duration backoff = Duration.ZERO;
    Duration idle = settings.idle();
    while (stopped.getCount() > 0) {
      try {
        rescanWhenDue();
        int stored = drainEveryPartitionOnce();
        recovered();
        backoff = Duration.ZERO;
        if (stored < 0) {
          idle = settings.idle(); // a full batch: go on at once
        } else {
          // Each pass reads every partition: while they stay empty, read them less often.
          idle = stored > 0 ? settings.idle() : min(idle.multipliedBy(2), maxIdle());
          awaitStopFor(idle); // new records in some outbox
        }
      } catch (SQLException | RuntimeException e) {
        failed(e);
        backoff = backoff.isZero() ? settings.idle() : min(backoff.multipliedBy(2), MAX_BACKOFF);
        awaitStopFor(backoff); // the database or Redis to come back
      }
    }
  }

  /** Stores every record waiting in the queue's outbox now, partition by partition. */
  void drainQueue(String queue) throws SQLException {
    int n = hourglass.queue(queue).settings().partitions();
    for (int p = 0; p < n; p++) {
      while (drain(queue, p) == settings.batchSize()) {
        // a full batch: there may be more
      }
    }
  }

  /** Reads one batch of a partition, stores it, then removes it from Redis; returns its size. */
  private int drain(String queue, int partition) throws SQLException {
    List<FinishedJob> batch = hourglass.outbox().read(queue, partition, settings.batchSize());
    if (batch.isEmpty()) {
      return 0;
    }
    table.insert(batch);
    hourglass.outbox().remove(queue, partition, batch.stream().map(FinishedJob::recordId).toList());
    settings.listener().archived(queue, batch.size());
    return batch.size();
  }

  /** Drains one batch of every partition; returns the records stored, or -1 after a full batch. */
  private int drainEveryPartitionOnce() throws SQLException {
    int stored = 0;
    boolean backlog = false;
    for (Map.Entry<String, Integer> q : partitions.entrySet()) {
      for (int p = 0; p < q.getValue(); p++) {
        int n = drain(q.getKey(), p);
        stored += n;
        backlog |= n == settings.batchSize();
      }
    }
    return backlog ? -1 : stored;
  }

  private Duration maxIdle() {
    return settings.idle().multipliedBy(IDLE_BACKOFF);
  }

  private void rescanWhenDue() {
    long now = System.nanoTime();
    if (!partitions.isEmpty() && now - scannedAt < RESCAN_NANOS) {
      return;
    }
    scannedAt = now;
    Map<String, Integer> found = new LinkedHashMap<>();
    for (String q : hourglass.queueNames()) {
      found.put(q, hourglass.queue(q).settings().partitions());
      sizes.put(q, hourglass.outbox().size(q));
    }
    sizes.keySet().retainAll(found.keySet());
    partitions = found;
  }

  private void failed(Exception e) {
    settings.listener().failed(e);
    if (!failing) {
      failing = true;
      log.warn(
          "archive: storing finished jobs failed, they wait in Redis's outbox; retrying: {}",
          e.toString());
    }
  }

  private void recovered() {
    if (failing) {
      failing = false;
      log.info("archive: storing finished jobs again");
    }
  }

  private void awaitStopFor(Duration d) {
    try {
      stopped.await(d.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopped.countDown();
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  /** Stops the loop after its current batch and waits for it. */
  void stop() {
    stopped.countDown();
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
