package dev.hourglass.spring.autoconfigure;

import dev.hourglass.Hourglass;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.archive.Archive;
import dev.hourglass.archive.ArchiveListener;
import dev.hourglass.archive.ArchiveSettings;
import dev.hourglass.micrometer.ArchiveMeters;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With hourglass-archive on the class path and {@code hourglass.archive.enabled=true}: the {@link
 * Archive}, started when the bean is created (so a database that cannot be reached or migrated
 * fails startup, as it fails the server's) and closed when the context closes, after the listeners
 * and forwarders have stopped and before the client closes (the bean depends on it). Its database
 * is {@code hourglass.archive.jdbc-url}, else the application's {@link DataSource}, which the
 * archive then does not close; it migrates that database only after the application's own
 * initializers (Flyway, Liquibase, {@code spring.sql.init}) have run, so its tables never make them
 * find a schema they did not expect. With {@link ArchiveMeters} (a {@code MeterRegistry}), they are
 * its listener.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = OptionalModules.ARCHIVE)
@ConditionalOnProperty(prefix = "hourglass.archive", name = "enabled", havingValue = "true")
class HourglassArchiveConfiguration {
  private static final Logger LOG = LoggerFactory.getLogger(HourglassArchiveConfiguration.class);

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  @DependsOnDatabaseInitialization
  Archive hourglassArchive(
      Hourglass hourglass,
      HourglassProperties properties,
      ObjectProvider<DataSource> dataSources,
      ObjectProvider<ArchiveMeters> meters) {
    HourglassArchiveProperties p = properties.getArchive();
    ArchiveMeters listener = meters.getIfAvailable();
    ArchiveSettings.Builder settings =
        ArchiveSettings.builder()
            .retention(p.getRetention())
            .outboxMaxPerPartition(p.getOutboxMax())
            .listener(listener == null ? ArchiveListener.none() : listener);
    String database;
    if (p.getJdbcUrl() != null) {
      settings.jdbc(p.getJdbcUrl(), p.getUser(), p.getPassword());
      database = ArchiveSettings.mask(p.getJdbcUrl());
    } else {
      DataSource ds = dataSources.getIfUnique();
      if (ds == null) {
        throw new InvalidConfigurationPropertyValueException(
            "hourglass.archive.jdbc-url",
            null,
            "The archive needs a database: set it, or give the application one DataSource.");
      }
      settings.dataSource(ds);
      database = "the application's DataSource";
    }
    Archive archive = Archive.start(hourglass, build(settings, p));
    if (listener != null) {
      listener.bind(archive);
    }
    LOG.info("Archive: finished jobs kept in {} for {}", database, p.getRetention());
    return archive;
  }

  private static ArchiveSettings build(
      ArchiveSettings.Builder settings, HourglassArchiveProperties p) {
    try {
      return settings.build();
    } catch (InvalidArgumentException e) {
      String property;
      Object value;
      switch (e.field()) {
        case "url" -> {
          property = "jdbc-url";
          value = p.getJdbcUrl() == null ? null : ArchiveSettings.mask(p.getJdbcUrl());
        }
        case "retention" -> {
          property = "retention";
          value = p.getRetention();
        }
        case "outboxMax" -> {
          property = "outbox-max";
          value = p.getOutboxMax();
        }
        default -> {
          property = e.field();
          value = null;
        }
      }
      InvalidConfigurationPropertyValueException failure =
          new InvalidConfigurationPropertyValueException(
              "hourglass.archive." + property, value, e.getMessage());
      failure.initCause(e);
      throw failure;
    }
  }
}
