package dev.hourglass.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.hourglass.JobOutcome;
import dev.hourglass.archive.Archive;
import dev.hourglass.archive.HistoryRecord;
import dev.hourglass.testing.Postgres;
import dev.hourglass.testing.RedisExtension;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code hourglass.archive.*} alone archives the jobs this application's listener finishes into a
 * real PostgreSQL, through a pool of its own or the application's {@code DataSource} (in a database
 * that already holds the application's tables), with the archive's meters; bad values fail startup
 * naming the property.
 */
class ArchivePropertiesTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();
  @RegisterExtension static Postgres pg = Postgres.perClass();

  /** Acks every job of "billing". */
  static class Billing {
    @HourglassListener(queue = "billing")
    void handle(String payload) {}
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class App {
    @Bean
    Billing billing() {
      return new Billing();
    }
  }

  /** With {@link App}: the application's own DataSource, in the database "shop". */
  @Configuration(proxyBeanMethods = false)
  static class ShopDataSource {
    @Bean(destroyMethod = "close")
    HikariDataSource dataSource() {
      HikariDataSource ds = new HikariDataSource();
      ds.setJdbcUrl(pg.jdbcUrl().replace("/postgres", "/shop"));
      ds.setUsername(pg.user());
      ds.setPassword(pg.password());
      return ds;
    }
  }

  private static ConfigurableApplicationContext run(Class<?> app, String... properties) {
    return run(List.of(app), properties);
  }

  private static ConfigurableApplicationContext run(List<Class<?>> sources, String... properties) {
    String[] all = new String[properties.length + 2];
    all[0] = "hourglass.redis-uri=" + redis.uri();
    all[1] = "hourglass.metrics.queue-refresh=200ms";
    System.arraycopy(properties, 0, all, 2, properties.length);
    return TestApps.run(sources, all);
  }

  @Test
  void finishedJobsLandInTheArchiveTable() throws Exception {
    try (ConfigurableApplicationContext app =
        run(
            App.class,
            "hourglass.archive.enabled=true",
            "hourglass.archive.jdbc-url=" + pg.jdbcUrl(),
            "hourglass.archive.user=" + pg.user(),
            "hourglass.archive.password=" + pg.password(),
            "hourglass.archive.retention=7d",
            "hourglass.archive.outbox-max=5000")) {
      HourglassTemplate template = app.getBean(HourglassTemplate.class);
      for (int i = 0; i < 3; i++) {
        template.job("billing", "{\"invoice\":" + i + "}").id("invoice-" + i).enqueue();
      }
      await().atMost(TestApps.LIVENESS).until(() -> ackedRows("postgres") == 3);

      Archive archive = app.getBean(Archive.class);
      HistoryRecord last = archive.history().last("billing", "invoice-2").orElseThrow();
      assertThat(last.outcome()).isEqualTo(JobOutcome.ACKED);
      assertThat(new String(last.payload().bytes(), java.nio.charset.StandardCharsets.UTF_8))
          .isEqualTo("{\"invoice\":2}");
      await()
          .atMost(TestApps.LIVENESS)
          .untilAsserted(
              () ->
                  assertThat(TestApps.get(app, "/actuator/prometheus").body())
                      .contains("hourglass_archive_rows_total 3.0")
                      .contains("hourglass_archive_failures_total 0.0")
                      .contains("hourglass_outbox_records{queue=\"billing\"} 0.0")
                      .contains("hourglass_outbox_dropped_total{queue=\"billing\"} 0.0"));
    }
  }

  @Test
  void theApplicationsDataSourceIsUsedWhenNoUrlIsGiven() throws Exception {
    try (Connection c = connect("postgres");
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS shop");
      s.execute("CREATE DATABASE shop");
    }
    try (Connection c = connect("shop");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE orders (id bigint PRIMARY KEY)"); // the application's own
    }
    try (ConfigurableApplicationContext app =
        run(List.of(App.class, ShopDataSource.class), "hourglass.archive.enabled=true")) {
      app.getBean(HourglassTemplate.class).enqueue("billing", "{}", Duration.ZERO);
      await().atMost(TestApps.LIVENESS).until(() -> ackedRows("shop") == 1);
      assertThat(
              app.getBean(Archive.class)
                  .history()
                  .page("billing", Optional.empty(), Optional.empty(), 10, Optional.empty())
                  .jobs())
          .hasSize(1);
    }
  }

  @Test
  void aBadArchiveValueFailsStartupNamingTheProperty() {
    String on = "hourglass.archive.enabled=true";
    String url = "hourglass.archive.jdbc-url=" + pg.jdbcUrl();
    startupFails(on, url, "hourglass.archive.retention=10s")
        .hasStackTraceContaining("hourglass.archive.retention")
        .hasStackTraceContaining("at least 1 minute");
    startupFails(on, url, "hourglass.archive.outbox-max=0")
        .hasStackTraceContaining("hourglass.archive.outbox-max");
    startupFails(on, "hourglass.archive.jdbc-url=jdbc:mysql://db/app?password=s3cret")
        .hasStackTraceContaining("hourglass.archive.jdbc-url")
        .hasStackTraceContaining("password=***");
    startupFails(on)
        .hasStackTraceContaining("hourglass.archive.jdbc-url")
        .hasStackTraceContaining("give the application one DataSource");
    startupFails(url)
        .hasStackTraceContaining("hourglass.archive.jdbc-url")
        .hasStackTraceContaining("hourglass.archive.enabled=true");
    startupFails("hourglass.archive.enabled=maybe")
        .hasStackTraceContaining("hourglass.archive.enabled");
    startupFails("hourglass.archive.retention-days=30")
        .hasStackTraceContaining("hourglass.archive.retention-days");
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> startupFails(
      String... properties) {
    return assertThatThrownBy(() -> run(App.class, properties));
  }

  private static Connection connect(String database) throws SQLException {
    return DriverManager.getConnection(
        pg.jdbcUrl().replace("/postgres", "/" + database), pg.user(), pg.password());
  }

  private static long ackedRows(String database) throws SQLException {
    try (Connection c = connect(database);
        Statement s = c.createStatement()) {
      try (ResultSet exists = s.executeQuery("SELECT to_regclass('hourglass_job_history')")) {
        exists.next();
        if (exists.getString(1) == null) {
          return 0;
        }
      }
      try (ResultSet r =
          s.executeQuery(
              "SELECT count(*) FROM hourglass_job_history"
                  + " WHERE queue = 'billing' AND outcome = 'acked'")) {
        r.next();
        return r.getLong(1);
      }
    }
  }
}
