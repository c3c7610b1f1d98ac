package dev.hourglass.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.Delivery;
import dev.hourglass.Hourglass;
import dev.hourglass.JobOutcome;
import dev.hourglass.JobSpec;
import dev.hourglass.Nack;
import dev.hourglass.Outbox;
import dev.hourglass.Queue;
import dev.hourglass.QueueSettings;
import dev.hourglass.testing.Postgres;
import dev.hourglass.testing.RedisExtension;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The archiver against a real Redis and a real PostgreSQL: every way a job finishes lands in the
 * table with its fields; while the database is down the outbox holds the records and its length
 * shows, and afterwards it drains with nothing lost or doubled; past the bound the oldest records
 * are dropped and counted.
 */
class ArchiverTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  Postgres pg;
  Hourglass hourglass;
  Archive archive;
  final AtomicLong archived = new AtomicLong();
  final AtomicLong failures = new AtomicLong();

  @BeforeEach
  void start() {
    pg = Postgres.start();
    hourglass = Hourglass.builder().redisUri(redis.uri()).build();
  }

  @AfterEach
  void stop() {
    if (archive != null) {
      archive.close();
    }
    hourglass.close();
    pg.close();
  }

  Archive startArchive(int outboxMax) {
    ArchiveListener listener =
        new ArchiveListener() {
          @Override
          public void archived(String queue, int rows) {
            archived.addAndGet(rows);
          }

          @Override
          public void failed(Exception cause) {
            failures.incrementAndGet();
          }
        };
    archive =
        Archive.start(
            hourglass,
            ArchiveSettings.builder()
                .jdbc(pg.jdbcUrl(), pg.user(), pg.password())
                .outboxMaxPerPartition(outboxMax)
                .idle(Duration.ofMillis(50))
                .listener(listener)
                .build());
    return archive;
  }

  @Test
  void everyOutcomeLandsInTheArchiveWithItsFields() {
    startArchive(1000);
    Queue<byte[]> q = hourglass.configureQueue("o", QueueSettings.builder().partitions(2).build());
    q.enqueue(job("acked").build());
    q.enqueue(job("killed").maxAttempts(5).build());
    q.enqueue(job("spent").maxAttempts(1).build());
    q.enqueue(job("cancelled").delay(Duration.ofHours(1)).build());
    Map<String, Delivery<byte[]>> got = claim(q, 3, Duration.ofMinutes(5));
    q.ack(got.get("acked"));
    q.nack(got.get("killed"), Nack.kill("bad payload"));
    q.nack(got.get("spent"), Nack.retry("only failure"));
    assertThat(q.cancel("cancelled")).isTrue();
    q.enqueue(job("lapsed").maxAttempts(1).build());
    assertThat(claim(q, 1, Duration.ofMillis(100))).containsOnlyKeys("lapsed");
    q.enqueue(job("expired").ttl(Duration.ofMillis(300)).build());
    await("the lapsed lease and the ttl pass")
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              return q.stats().counters().expired() == 1 && q.stats().counters().dead() == 3;
            });
    History h = archive.history();
    await("dead letters archived").atMost(Duration.ofSeconds(30)).until(() -> deadArchived(h) == 3);
    assertThat(q.dead().purge()).isEqualTo(3);
    await("every record archived")
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                h.page("o", Optional.empty(), Optional.empty(), 100, Optional.empty()).jobs().size()
                    == 9);

    assertThat(outcome(h, "acked")).isEqualTo(JobOutcome.ACKED);
    assertThat(outcome(h, "killed")).isEqualTo(JobOutcome.PURGED);
    assertThat(outcome(h, "spent")).isEqualTo(JobOutcome.PURGED);
    assertThat(outcome(h, "lapsed")).isEqualTo(JobOutcome.PURGED);
    assertThat(outcome(h, "cancelled")).isEqualTo(JobOutcome.CANCELLED);
    assertThat(outcome(h, "expired")).isEqualTo(JobOutcome.EXPIRED);
    HistoryRecord acked = h.last("o", "acked").orElseThrow();
    assertThat(acked.attempts()).isEqualTo(1);
    assertThat(acked.lastError()).isEmpty();
    assertThat(acked.payload().asString()).isEqualTo("payload-acked");
    assertThat(acked.finishedAt()).isAfterOrEqualTo(acked.createdAt());
    List<HistoryRecord> dead =
        h.page("o", Optional.of(JobOutcome.DEAD), Optional.empty(), 10, Optional.empty()).jobs();
    Map<String, HistoryRecord> deadById = new HashMap<>();
    dead.forEach(r -> deadById.put(r.id(), r));
    assertThat(deadById.get("killed").lastError()).contains("bad payload");
    assertThat(deadById.get("spent").lastError()).contains("only failure");
    assertThat(deadById.get("lapsed").lastError())
        .hasValueSatisfying(e -> assertThat(e).contains("lease"));
    assertThat(deadById.get("spent").attempts()).isEqualTo(1);
    HistoryRecord cancelled = h.last("o", "cancelled").orElseThrow();
    assertThat(cancelled.runAt()).isAfter(cancelled.createdAt().plus(Duration.ofMinutes(59)));
    assertThat(h.last("o", "expired").orElseThrow().attempts()).isZero();
    assertThat(archived.get()).isEqualTo(9);
  }

  @Test
  void whileTheDatabaseIsDownTheOutboxHoldsTheRecordsThenDrainsWithNothingLostOrDoubled()
      throws SQLException {
    startArchive(100_000);
    Queue<byte[]> q =
        hourglass.configureQueue("down", QueueSettings.builder().partitions(4).build());
    enqueueAndAck(q, 0, 200);
    await("the first jobs archived").atMost(Duration.ofSeconds(30)).until(() -> rows() == 200);

    pg.stop();
    enqueueAndAck(q, 200, 300);
    await("the outbox's length shows the records waiting")
        .atMost(Duration.ofSeconds(60))
        .until(() -> archive.outboxSizes().getOrDefault("down", ZERO).waiting() == 300);
    await("the archiver noticed").atMost(Duration.ofSeconds(60)).until(() -> failures.get() > 0);

    pg.startAgain();
    await("the outbox drained")
        .atMost(Duration.ofSeconds(60))
        .until(() -> hourglass.outbox().size("down").waiting() == 0);
    assertThat(rows()).isEqualTo(500);
    assertThat(distinctJobIds()).isEqualTo(500);
  }

  @Test
  void pastTheBoundTheOldestRecordsAreDroppedAndCounted() throws SQLException {
    startArchive(5);
    Queue<byte[]> q =
        hourglass.configureQueue("bounded", QueueSettings.builder().partitions(1).build());
    pg.stop();
    enqueueAndAck(q, 0, 8);
    assertThat(hourglass.outbox().size("bounded")).isEqualTo(new Outbox.OutboxSize(5, 3));
    await("the scan sees the dropped records")
        .atMost(Duration.ofSeconds(60))
        .until(() -> archive.outboxSizes().getOrDefault("bounded", ZERO).dropped() == 3);
    pg.startAgain();
    await("the kept records archived").atMost(Duration.ofSeconds(60)).until(() -> rows() == 5);
    History h = archive.history();
    List<String> ids =
        h.page("bounded", Optional.empty(), Optional.empty(), 100, Optional.empty()).jobs().stream()
            .map(HistoryRecord::id)
            .toList();
    assertThat(ids).containsExactlyInAnyOrder("j3", "j4", "j5", "j6", "j7");
  }

  static final Outbox.OutboxSize ZERO = new Outbox.OutboxSize(0, 0);

  static JobSpec.Builder job(String id) {
    return JobSpec.builder().id(id).payload("payload-" + id);
  }

  long deadArchived(History h) {
    return h.page("o", Optional.of(JobOutcome.DEAD), Optional.empty(), 10, Optional.empty())
        .jobs()
        .size();
  }

  static JobOutcome outcome(History h, String id) {
    return h.last("o", id).orElseThrow().outcome();
  }

  static Map<String, Delivery<byte[]>> claim(Queue<byte[]> q, int n, Duration visibility) {
    Map<String, Delivery<byte[]>> got = new HashMap<>();
    await("" + n + " jobs claimed")
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> {
              q.claim(n - got.size(), visibility).forEach(d -> got.put(d.id(), d));
              return got.size() == n;
            });
    return got;
  }

  static void enqueueAndAck(Queue<byte[]> q, int from, int n) {
    for (int i = from; i < from + n; i++) {
      q.enqueue(job("j" + i).build());
    }
    List<Delivery<byte[]>> all = new ArrayList<>(claim(q, n, Duration.ofMinutes(5)).values());
    all.sort((a, b) -> Integer.compare(num(a.id()), num(b.id())));
    all.forEach(q::ack);
  }

  static int num(String id) {
    return Integer.parseInt(id.substring(1));
  }

  long rows() throws SQLException {
    return scalar("SELECT count(*) FROM hourglass_job_history");
  }

  long distinctJobIds() throws SQLException {
    return scalar("SELECT count(DISTINCT job_id) FROM hourglass_job_history");
  }

  long scalar(String sql) throws SQLException {
    try (Connection c =
            java.sql.DriverManager.getConnection(pg.jdbcUrl(), pg.user(), pg.password());
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
