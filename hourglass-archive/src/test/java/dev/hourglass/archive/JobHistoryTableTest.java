package dev.hourglass.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hourglass.FinishedJob;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobOutcome;
import dev.hourglass.Payload;
import dev.hourglass.spi.PayloadCodec;
import dev.hourglass.testing.Postgres;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The archive's table on a real PostgreSQL: the migration, idempotent stores, pages newest first
 * with filters and cursors, the last record of an id, and the retention.
 */
class JobHistoryTableTest {
  static Postgres pg;
  static HikariDataSource ds;
  static JobHistoryTable table;
  static History history;
  static final Instant T0 = Instant.parse("2026-11-20T10:00:00Z");

  @BeforeAll
  static void startDatabase() {
    pg = Postgres.start();
    ds = pool(pg);
    Archive.migrate(ds);
    table = new JobHistoryTable(ds);
    history = new History(table);
  }

  @AfterAll
  static void stopDatabase() {
    ds.close();
    pg.close();
  }

  @BeforeEach
  void empty() throws SQLException {
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement()) {
      st.execute("TRUNCATE hourglass_job_history");
    }
  }

  static HikariDataSource pool(Postgres pg) {
    HikariConfig c = new HikariConfig();
    c.setJdbcUrl(pg.jdbcUrl());
    c.setUsername(pg.user());
    c.setPassword(pg.password());
    c.setMaximumPoolSize(2);
    return new HikariDataSource(c);
  }

  static FinishedJob finished(
      String queue, int partition, String recordId, String id, JobOutcome o, Instant at) {
    return new FinishedJob(
        recordId,
        queue,
        partition,
        id,
        o,
        at,
        at.minusSeconds(60),
        at.minusSeconds(30),
        o == JobOutcome.DEAD ? 3 : 1,
        o == JobOutcome.DEAD ? Optional.of("boom") : Optional.empty(),
        Payload.of(
            ("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8), PayloadCodec.bytes()));
  }

  static long count() throws SQLException {
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM hourglass_job_history")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void theMigrationIsRecordedInItsOwnHistoryTableAndRunsOnce() throws SQLException {
    Archive.migrate(ds); // again: nothing to do
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery("SELECT version, success FROM hourglass_schema_history ORDER BY 1")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("1");
      assertThat(rs.getBoolean(2)).isTrue();
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  void aDatabaseThatHoldsTheApplicationsTablesGetsTheArchiveTableToo() throws SQLException {
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE shared");
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(pg.jdbcUrl().replace("/postgres", "/shared"));
    config.setUsername(pg.user());
    config.setPassword(pg.password());
    config.setMaximumPoolSize(2); // Flyway holds two
    try (HikariDataSource shared = new HikariDataSource(config)) {
      try (Connection c = shared.getConnection();
          Statement st = c.createStatement()) {
        st.execute("CREATE TABLE orders (id bigint PRIMARY KEY)"); // the application's own
      }
      Archive.migrate(shared);
      try (Connection c = shared.getConnection();
          Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT count(*) FROM hourglass_job_history")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isZero();
      }
    }
  }

  @Test
  void aRecordStoredTwiceIsOneRowWithEveryField() throws SQLException {
    FinishedJob j = finished("q", 1, "1700000000000-0", "job-1", JobOutcome.DEAD, T0);
    table.insert(List.of(j));
    table.insert(List.of(j, finished("q", 1, "1700000000000-1", "job-2", JobOutcome.ACKED, T0)));
    assertThat(count()).isEqualTo(2);

    HistoryRecord r = history.last("q", "job-1").orElseThrow();
    assertThat(r.id()).isEqualTo("job-1");
    assertThat(r.queue()).isEqualTo("q");
    assertThat(r.outcome()).isEqualTo(JobOutcome.DEAD);
    assertThat(r.finishedAt()).isEqualTo(T0);
    assertThat(r.createdAt()).isEqualTo(T0.minusSeconds(60));
    assertThat(r.runAt()).isEqualTo(T0.minusSeconds(30));
    assertThat(r.attempts()).isEqualTo(3);
    assertThat(r.lastError()).contains("boom");
    assertThat(r.payload().asString()).isEqualTo("{\"id\":\"job-1\"}");
  }

  @Test
  void pagesAreNewestFirstFilteredAndFollowTheirCursorsWithoutGapsOrRepeats() throws SQLException {
    List<FinishedJob> jobs = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      // Pairs finish in the same millisecond on two partitions: the tiebreak orders them.
      Instant at = T0.plusMillis(i / 2);
      JobOutcome o = i % 3 == 0 ? JobOutcome.DEAD : JobOutcome.ACKED;
      jobs.add(finished("q", i % 2, (1000 + i) + "-0", "j" + i, o, at));
    }
    jobs.add(finished("other", 0, "1-0", "x", JobOutcome.ACKED, T0.plusSeconds(10)));
    table.insert(jobs);

    List<String> seen = new ArrayList<>();
    Optional<String> cursor = Optional.empty();
    int pages = 0;
    do {
      HistoryPage p = history.page("q", Optional.empty(), Optional.empty(), 4, cursor);
      p.jobs().forEach(r -> seen.add(r.id()));
      cursor = p.next();
      pages++;
    } while (cursor.isPresent());
    assertThat(pages).isEqualTo(7);
    assertThat(seen).hasSize(25).doesNotHaveDuplicates().doesNotContain("x");
    List<Instant> times =
        seen.stream().map(id -> history.last("q", id).orElseThrow().finishedAt()).toList();
    assertThat(times).isSortedAccordingTo((a, b) -> b.compareTo(a));

    HistoryPage dead =
        history.page("q", Optional.of(JobOutcome.DEAD), Optional.empty(), 100, Optional.empty());
    assertThat(dead.jobs())
        .extracting(HistoryRecord::id)
        .containsExactly("j24", "j21", "j18", "j15", "j12", "j9", "j6", "j3", "j0");
    assertThat(dead.next()).isEmpty();

    HistoryPage recent =
        history.page("q", Optional.empty(), Optional.of(T0.plusMillis(11)), 100, Optional.empty());
    assertThat(recent.jobs())
        .extracting(HistoryRecord::id)
        .containsExactlyInAnyOrder("j22", "j23", "j24");
  }

  @Test
  void theLastRecordOfAnIdIsItsLatest() throws SQLException {
    table.insert(
        List.of(
            finished("q", 0, "5-0", "twice", JobOutcome.DEAD, T0),
            finished("q", 0, "6-0", "twice", JobOutcome.PURGED, T0.plusSeconds(5))));
    assertThat(history.last("q", "twice").orElseThrow().outcome()).isEqualTo(JobOutcome.PURGED);
    assertThat(history.last("q", "never")).isEmpty();
    assertThat(history.last("other", "twice")).isEmpty();
  }

  @Test
  void badLimitsAndCursorsAreInvalidArguments() {
    assertThatThrownBy(
            () -> history.page("q", Optional.empty(), Optional.empty(), 0, Optional.empty()))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("limit");
    assertThatThrownBy(
            () -> history.page("q", Optional.empty(), Optional.empty(), 1001, Optional.empty()))
        .isInstanceOf(InvalidArgumentException.class);
    for (String bad : List.of("!!", "bm90IGEgY3Vyc29y", "MTp4OjE6YQ")) {
      assertThatThrownBy(
              () -> history.page("q", Optional.empty(), Optional.empty(), 10, Optional.of(bad)))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("cursor");
    }
  }

  @Test
  void retentionDeletesOnlyRowsOlderThanItsAgeInBatches() throws SQLException {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    List<FinishedJob> jobs = new ArrayList<>();
    for (int i = 0; i < RetentionJanitor.BATCH + 5; i++) {
      jobs.add(
          finished("q", 0, i + "-0", "old" + i, JobOutcome.ACKED, now.minus(Duration.ofDays(31))));
    }
    jobs.add(finished("q", 0, "x-1", "young", JobOutcome.ACKED, now.minus(Duration.ofDays(29))));
    table.insert(jobs);
    List<Integer> batches = new ArrayList<>();
    ArchiveListener listener =
        new ArchiveListener() {
          @Override
          public void expired(int rows) {
            batches.add(rows);
          }
        };
    RetentionJanitor janitor =
        new RetentionJanitor(table, Duration.ofDays(30), listener, java.time.Clock.systemUTC());
    assertThat(janitor.deleteExpired()).isEqualTo(RetentionJanitor.BATCH + 5);
    assertThat(batches).containsExactly(RetentionJanitor.BATCH, 5);
    assertThat(count()).isEqualTo(1);
    assertThat(history.last("q", "young")).isPresent();
  }
}
