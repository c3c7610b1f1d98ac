package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.Delivery;
import dev.hourglass.Hourglass;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import dev.hourglass.QueueSettings;
import dev.hourglass.testing.Postgres;
import dev.hourglass.testing.RedisExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server that archives is SIGKILLed while jobs are being acked (by a client of the same Redis,
 * which the kill does not stop), then started again: every acked job is in the archive exactly
 * once, as the outbox kept what the dead archiver had not removed, and a record stored twice is one
 * row.
 */
class ArchiveKillTest {
  private static final Duration STEP = Duration.ofSeconds(60);
  private static final int JOBS = 3000;

  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();
  @TempDir Path tmp;
  Postgres pg;

  @BeforeEach
  void startDatabase() {
    pg = Postgres.start();
  }

  @AfterEach
  void stopDatabase() {
    pg.close();
  }

  @Test
  void aSigkilledServerLosesNoFinishedJobAndStoresNoneTwice() throws Exception {
    AtomicLong acked = new AtomicLong();
    CompletableFuture<Void> consumer;
    try (ChildProcess first = startServer();
        Hourglass client = Hourglass.builder().redisUri(redis.uri()).build()) {
      // Created after the server turned the outbox on, by a client that sees it on.
      Queue<byte[]> q =
          client.configureQueue("killed", QueueSettings.builder().partitions(4).build());
      for (int i = 0; i < JOBS; i++) {
        q.enqueue(JobSpec.builder().id("j" + i).payload("{\"i\":" + i + "}").build());
      }
      ackUpTo(q, acked, JOBS / 6);
      await("the first jobs archived").atMost(STEP).until(() -> rows() > 0);
      consumer = CompletableFuture.runAsync(() -> ackUpTo(q, acked, JOBS));
      await("more jobs acked while the archiver works")
          .atMost(STEP)
          .until(() -> acked.get() >= JOBS / 2);
      first.kill();
      long ackedAtKill = acked.get();
      consumer.get();
      System.out.println("server SIGKILLed with " + ackedAtKill + " of " + JOBS + " jobs acked");
      assertThat(q.stats().counters().acked()).isEqualTo(JOBS);

      try (ChildProcess second = startServer()) {
        await("the outbox drained by the restarted server")
            .atMost(STEP)
            .until(() -> client.outbox().size("killed").waiting() == 0 && rows() == JOBS);
        assertThat(scalar("SELECT count(DISTINCT job_id) FROM hourglass_job_history"))
            .isEqualTo(JOBS);
        assertThat(scalar("SELECT count(*) FROM hourglass_job_history WHERE outcome = 'acked'"))
            .isEqualTo(JOBS);
        assertThat(client.outbox().size("killed").dropped()).isZero();
      }
    }
    assertThat(acked.get()).isEqualTo(JOBS);
  }

  private static void ackUpTo(Queue<byte[]> q, AtomicLong acked, int limit) {
    while (acked.get() < limit) {
      List<Delivery<byte[]>> got =
          q.claim((int) Math.min(50, limit - acked.get()), Duration.ofMinutes(5));
      for (Delivery<byte[]> d : got) {
        q.ack(d);
        acked.incrementAndGet();
      }
    }
  }

  private ChildProcess startServer() throws InterruptedException {
    return ChildProcess.readyServerJvm(
        tmp,
        ChildProcess.freePort(),
        STEP,
        "--redis",
        redis.uri(),
        "--archive-url",
        pg.jdbcUrl(),
        "--archive-user",
        pg.user(),
        "--archive-password",
        pg.password(),
        "--log-format",
        "text");
  }

  private long rows() throws SQLException {
    return scalar("SELECT count(*) FROM hourglass_job_history");
  }

  private long scalar(String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(pg.jdbcUrl(), pg.user(), pg.password());
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
