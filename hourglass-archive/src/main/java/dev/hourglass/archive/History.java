package dev.hourglass.archive;

import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobOutcome;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Queries of the archive: a queue's finished jobs newest first, and the last record of a job id.
 * Thread-safe; each call takes a connection from the archive's pool.
 */
public final class History {
  /** The most records a page may hold. */
  public static final int MAX_LIMIT = 1000;

  private final JobHistoryTable table;

  History(JobHistoryTable table) {
    this.table = table;
  }

  /**
   * A page of the queue's finished jobs, newest first (by finish time; records finished in the same
   * microsecond in a fixed order).
   *
   * @param queue the queue name
   * @param outcome only records of this outcome, if given
   * @param since only records that finished at or after this time, if given
   * @param limit 1 to {@value #MAX_LIMIT}
   * @param cursor the {@link HistoryPage#next()} of the previous page, if any
   * @return up to {@code limit} records, and the cursor of the next page unless this is the last
   * @throws InvalidArgumentException for a bad queue name, limit or cursor
   * @throws ArchiveException when the database cannot be read
   */
  public HistoryPage page(
      String queue,
      Optional<JobOutcome> outcome,
      Optional<Instant> since,
      int limit,
      Optional<String> cursor) {
    requireQueue(queue);
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InvalidArgumentException("limit", "must be 1 to " + MAX_LIMIT + ", was " + limit);
    }
    Optional<HistoryCursor> after = cursor.map(HistoryCursor::decode);
    try {
      List<JobHistoryTable.Row> rows = table.page(queue, outcome, since, limit, after);
      boolean more = rows.size() > limit;
      List<JobHistoryTable.Row> shown = more ? rows.subList(0, limit) : rows;
      Optional<String> next =
          more ? Optional.of(shown.get(limit - 1).position().encode()) : Optional.empty();
      return new HistoryPage(shown.stream().map(JobHistoryTable.Row::record).toList(), next);
    } catch (SQLException e) {
      throw new ArchiveException("reading the history of queue " + queue, e);
    }
  }

  /**
   * The last record of a job id in the queue: a job that went dead and was then purged has two
   * records, and this is the purge.
   *
   * @param queue the queue name
   * @param jobId the job id
   * @return the record, or empty when the archive holds none for this id
   * @throws InvalidArgumentException for a bad queue name or id
   * @throws ArchiveException when the database cannot be read
   */
  public Optional<HistoryRecord> last(String queue, String jobId) {
    requireQueue(queue);
    if (jobId == null || jobId.isEmpty()) {
      throw new InvalidArgumentException("id", "is required");
    }
    try {
      return table.last(queue, jobId).map(JobHistoryTable.Row::record);
    } catch (SQLException e) {
      throw new ArchiveException("reading job " + jobId + " of queue " + queue, e);
    }
  }

  private static void requireQueue(String queue) {
    if (queue == null || queue.isEmpty()) {
      throw new InvalidArgumentException("queue", "is required");
    }
  }
}
