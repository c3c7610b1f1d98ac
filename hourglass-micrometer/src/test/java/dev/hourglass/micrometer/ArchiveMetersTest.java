package dev.hourglass.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.Delivery;
import dev.hourglass.Hourglass;
import dev.hourglass.Queue;
import dev.hourglass.QueueSettings;
import dev.hourglass.archive.Archive;
import dev.hourglass.archive.ArchiveSettings;
import dev.hourglass.testing.Postgres;
import dev.hourglass.testing.RedisExtension;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The archive's meters against a real Redis and a real PostgreSQL, read from a Prometheus registry
 * under the names the server's {@code /metrics} shows: rows stored, the outbox growing while the
 * database is down (with failures counted) and draining after, and records dropped past the bound.
 */
class ArchiveMetersTest {
  private static final Duration LIVENESS = Duration.ofSeconds(60);

  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();
  @RegisterExtension static Postgres pg = Postgres.perClass();

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final ArchiveMeters meters = new ArchiveMeters(registry);
  private Hourglass hourglass;
  private Archive archive;

  @BeforeEach
  void connect() {
    hourglass = Hourglass.builder().redisUri(redis.uri()).build();
  }

  @AfterEach
  void close() {
    if (archive != null) {
      archive.close();
    }
    hourglass.close();
  }

  private void startArchive(int outboxMax) {
    archive =
        Archive.start(
            hourglass,
            ArchiveSettings.builder()
                .jdbc(pg.jdbcUrl(), pg.user(), pg.password())
                .outboxMaxPerPartition(outboxMax)
                .idle(Duration.ofMillis(50))
                .listener(meters)
                .build());
    meters.bind(archive);
  }

  @Test
  void rowsAndTheOutboxAreMeteredUnderTheServersNames() {
    startArchive(1000);
    Queue<byte[]> q = oneList("billing");
    ackJobs(q, 5);
    await().atMost(LIVENESS).until(() -> counter("hourglass.archive.rows") == 5);
    assertThat(counter("hourglass.archive.failures")).isZero();

    // The outbox meters show the archiver's last scan, which may predate the last commit.
    await()
        .atMost(LIVENESS)
        .untilAsserted(
            () -> {
              meters.registerQueues();
              assertThat(scrape())
                  .contains("hourglass_archive_rows_total 5.0")
                  .contains("hourglass_archive_failures_total 0.0")
                  .contains("hourglass_outbox_records{queue=\"billing\"} 0.0")
                  .contains("hourglass_outbox_dropped_total{queue=\"billing\"} 0.0");
            });

    pg.stop();
    ackJobs(q, 7);
    await()
        .atMost(LIVENESS)
        .until(() -> gauge("billing") == 7 && counter("hourglass.archive.failures") > 0);
    pg.startAgain();
    await().atMost(LIVENESS).until(() -> gauge("billing") == 0);
    assertThat(counter("hourglass.archive.rows")).isEqualTo(12);
  }

  @Test
  void recordsDroppedPastTheBoundAreCounted() {
    startArchive(3);
    pg.stop();
    try {
      assertDroppedPastTheBound();
    } finally {
      pg.startAgain();
    }
  }

  private void assertDroppedPastTheBound() {
    Queue<byte[]> q = oneList("capped");
    ackJobs(q, 5);
    await()
        .atMost(LIVENESS)
        .until(
            () -> {
              meters.registerQueues();
              return registry
                          .find("hourglass.outbox.dropped")
                          .tag("queue", "capped")
                          .functionCounter()
                      != null
                  && dropped("capped") == 2;
            });
    assertThat(gauge("capped")).isEqualTo(3);
  }

  /** A queue of one partition, whose outbox is one bounded stream. */
  private Queue<byte[]> oneList(String name) {
    return hourglass.configureQueue(name, QueueSettings.builder().partitions(1).build());
  }

  private static void ackJobs(Queue<byte[]> q, int n) {
    for (int i = 0; i < n; i++) {
      q.enqueue(("{\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8), Duration.ZERO);
    }
    int acked = 0;
    while (acked < n) {
      for (Delivery<byte[]> d : q.claim(n - acked, Duration.ofMinutes(1))) {
        q.ack(d);
        acked++;
      }
    }
  }

  private double counter(String name) {
    return registry.get(name).counter().count();
  }

  private double gauge(String queue) {
    meters.registerQueues();
    var g = registry.find("hourglass.outbox.records").tag("queue", queue).gauge();
    return g == null ? Double.NaN : g.value();
  }

  private double dropped(String queue) {
    return registry.get("hourglass.outbox.dropped").tag("queue", queue).functionCounter().count();
  }

  private String scrape() {
    return registry.scrape();
  }
}
