package dev.hourglass.examples.orders;

import dev.hourglass.embedded.RedisServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.FileSystemUtils;

/**
 * Runs the example on an embedded Redis when the application names none: with no {@code
 * spring.data.redis.*} property and no {@code hourglass.redis-uri}, it starts a {@code
 * redis-server} (from {@code hourglass-embedded}) before the context is refreshed and sets {@code
 * hourglass.redis-uri} to it, so that the starter's client connects there.
 *
 * <p>The server is the context's bean {@value #BEAN_NAME}, registered before every other bean, so
 * it is destroyed after all of them: listeners have stopped and the Hourglass client has closed
 * when Redis stops. It keeps its data in a temporary directory deleted when it stops, since orders
 * live in memory too. It runs with an append-only file in a directory of ours because {@code
 * hourglass-embedded} then leaves stopping it to its owner (and runs it in a session of its own, so
 * that a Ctrl+C reaches only the JVM): an in-memory one would be killed by that module's shutdown
 * hook while Spring is still shutting down gracefully. Should the JVM be killed outright, the
 * module's watchdog kills the server within seconds (the temporary directory then stays behind).
 */
public final class EmbeddedRedis
    implements ApplicationContextInitializer<ConfigurableApplicationContext> {

  /** The name of the {@link RedisServer} bean, when one was started. */
  public static final String BEAN_NAME = "embeddedRedis";

  private static final Logger log = LoggerFactory.getLogger(EmbeddedRedis.class);
  private static final ConfigurationPropertyName HOURGLASS_REDIS_URI =
      ConfigurationPropertyName.of("hourglass.redis-uri");
  private static final ConfigurationPropertyName SPRING_DATA_REDIS =
      ConfigurationPropertyName.of("spring.data.redis");

  @Override
  public void initialize(ConfigurableApplicationContext context) {
    ConfigurableEnvironment environment = context.getEnvironment();
    if (redisConfigured(environment)) {
      return;
    }
    Path dataDir = createDataDir();
    RedisServer redis = RedisServer.builder().persistent().dataDir(dataDir).build();
    try {
      redis.start();
    } catch (RuntimeException e) {
      FileSystemUtils.deleteRecursively(dataDir.toFile());
      throw e;
    }
    environment
        .getPropertySources()
        .addFirst(new MapPropertySource(BEAN_NAME, Map.of("hourglass.redis-uri", redis.uri())));
    DefaultSingletonBeanRegistry beans = (DefaultSingletonBeanRegistry) context.getBeanFactory();
    beans.registerSingleton(BEAN_NAME, redis);
    beans.registerDisposableBean(BEAN_NAME, () -> stop(redis, dataDir));
    log.info(
        "No Redis configured (spring.data.redis.*, hourglass.redis-uri): started an embedded"
            + " redis-server at {}, pid {}",
        redis.uri(),
        redis.pid());
  }

  /** Whether the environment has {@code hourglass.redis-uri} or any {@code spring.data.redis.*}. */
  static boolean redisConfigured(ConfigurableEnvironment environment) {
    for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
      ConfigurationProperty uri = source.getConfigurationProperty(HOURGLASS_REDIS_URI);
      if (uri != null && !String.valueOf(uri.getValue()).isBlank()
          || source.containsDescendantOf(SPRING_DATA_REDIS) == ConfigurationPropertyState.PRESENT) {
        return true;
      }
    }
    return false;
  }

  private static Path createDataDir() {
    try {
      return Files.createTempDirectory("orders-redis-");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create a data directory for the embedded Redis", e);
    }
  }

  private static void stop(RedisServer redis, Path dataDir) throws IOException {
    try {
      redis.stop();
      log.info("Embedded redis-server at {} stopped", redis.uri());
    } finally {
      FileSystemUtils.deleteRecursively(dataDir);
    }
  }
}
