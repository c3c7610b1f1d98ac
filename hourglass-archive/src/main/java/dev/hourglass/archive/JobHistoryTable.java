package dev.hourglass.archive;

import dev.hourglass.FinishedJob;
import dev.hourglass.JobOutcome;
import dev.hourglass.Payload;
import dev.hourglass.spi.PayloadCodec;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/** The SQL of the {@code hourglass_job_history} table: every statement the archive runs on it. */
final class JobHistoryTable {
  private static final String INSERT =
      "INSERT INTO hourglass_job_history (queue, partition, record_id, job_id, outcome,"
          + " finished_at, created_at, run_at, attempts, last_error, payload)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
          + " ON CONFLICT (queue, partition, record_id) DO NOTHING";
  private static final String COLUMNS =
      "job_id, queue, outcome, finished_at, created_at, run_at, attempts, last_error, payload,"
          + " partition, record_id";
  private static final String LAST =
      "SELECT "
          + COLUMNS
          + " FROM hourglass_job_history WHERE queue = ? AND job_id = ?"
          + " ORDER BY finished_at DESC, partition DESC, record_id DESC LIMIT 1";
  private static final String DELETE_OLD =
      "DELETE FROM hourglass_job_history WHERE ctid IN (SELECT ctid FROM hourglass_job_history"
          + " WHERE finished_at < ? LIMIT ?)";

  private final DataSource dataSource;

  JobHistoryTable(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Stores the records in one transaction; a record already stored is left as it is. */
  void insert(List<FinishedJob> jobs) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement st = c.prepareStatement(INSERT)) {
        for (FinishedJob j : jobs) {
          st.setString(1, j.queue());
          st.setInt(2, j.partition());
          st.setString(3, j.recordId());
          st.setString(4, j.id());
          st.setString(5, j.outcome().wireName());
          st.setTimestamp(6, Timestamp.from(j.finishedAt()));
          st.setTimestamp(7, Timestamp.from(j.createdAt()));
          st.setTimestamp(8, Timestamp.from(j.runAt()));
          st.setInt(9, j.attempts());
          st.setString(10, j.lastError().orElse(null));
          // A payload this process cannot open (compressed with what it lacks) is kept as the
          // note saying why, so that one such job does not hold up the archive.
          st.setBytes(
              11,
              j.payload().readable()
                  ? j.payload().bytes()
                  : j.payload().asString().getBytes(StandardCharsets.UTF_8));
          st.addBatch();
        }
        st.executeBatch();
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      }
    }
  }

  /** Up to {@code limit} rows after the cursor, newest first, plus one to tell if more follow. */
  List<Row> page(
      String queue,
      Optional<JobOutcome> outcome,
      Optional<Instant> since,
      int limit,
      Optional<HistoryCursor> after)
      throws SQLException {
    StringBuilder sql =
        new StringBuilder("SELECT ").append(COLUMNS).append(" FROM hourglass_job_history");
    sql.append(" WHERE queue = ?");
    outcome.ifPresent(o -> sql.append(" AND outcome = ?"));
    since.ifPresent(s -> sql.append(" AND finished_at >= ?"));
    after.ifPresent(a -> sql.append(" AND (finished_at, partition, record_id) < (?, ?, ?)"));
    sql.append(" ORDER BY finished_at DESC, partition DESC, record_id DESC LIMIT ?");
    try (Connection c = dataSource.getConnection();
        PreparedStatement st = c.prepareStatement(sql.toString())) {
      int i = 1;
      st.setString(i++, queue);
      if (outcome.isPresent()) {
        st.setString(i++, outcome.get().wireName());
      }
      if (since.isPresent()) {
        st.setTimestamp(i++, Timestamp.from(since.get()));
      }
      if (after.isPresent()) {
        st.setTimestamp(i++, Timestamp.from(after.get().finishedAt()));
        st.setInt(i++, after.get().partition());
        st.setString(i++, after.get().recordId());
      }
      st.setInt(i, limit + 1);
      return rows(st);
    }
  }

  /** The last row of a job id. */
  Optional<Row> last(String queue, String jobId) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement st = c.prepareStatement(LAST)) {
      st.setString(1, queue);
      st.setString(2, jobId);
      return rows(st).stream().findFirst();
    }
  }

  /** Deletes up to {@code limit} rows that finished before the cutoff; returns how many. */
  int deleteOlderThan(Instant cutoff, int limit) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement st = c.prepareStatement(DELETE_OLD)) {
      st.setTimestamp(1, Timestamp.from(cutoff));
      st.setInt(2, limit);
      return st.executeUpdate();
    }
  }

  private static List<Row> rows(PreparedStatement st) throws SQLException {
    List<Row> rows = new ArrayList<>();
    try (ResultSet rs = st.executeQuery()) {
      while (rs.next()) {
        HistoryRecord r =
            new HistoryRecord(
                rs.getString(1),
                rs.getString(2),
                JobOutcome.ofWireName(rs.getString(3)),
                rs.getTimestamp(4).toInstant(),
                rs.getTimestamp(5).toInstant(),
                rs.getTimestamp(6).toInstant(),
                rs.getInt(7),
                Optional.ofNullable(rs.getString(8)),
                Payload.of(rs.getBytes(9), PayloadCodec.bytes()));
        rows.add(new Row(r, new HistoryCursor(r.finishedAt(), rs.getInt(10), rs.getString(11))));
      }
    }
    return rows;
  }

  /** A record and its position in the page order. */
  record Row(HistoryRecord record, HistoryCursor position) {}
}
