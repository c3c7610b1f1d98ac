package dev.hourglass.spring.autoconfigure;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Builds the Hourglass Redis URI from the application's {@code spring.data.redis.*} settings, read
 * with a {@link Binder} rather than through Boot's own properties class, whose name and package
 * differ between Boot 3 and 4. Precedence follows Boot's: {@code sentinel}, then {@code cluster},
 * then a standalone server by {@code url}, else {@code host}/{@code port}. What the URI cannot
 * carry (master/replica nodes, SSL bundles, sentinels' own credentials, TLS through sentinels or to
 * a cluster) fails startup naming the property.
 */
final class SpringRedisUri {
  private static final String PREFIX = "spring.data.redis.";

  private final Binder binder;

  SpringRedisUri(Binder binder) {
    this.binder = binder;
  }

  /** The URI that {@code spring.data.redis.*} describes (defaults: localhost, 6379, database 0). */
  String uri() {
    if (!nodes("masterreplica.nodes").isEmpty()) {
      throw new InvalidConfigurationPropertyValueException(
          PREFIX + "masterreplica.nodes",
          String.join(",", nodes("masterreplica.nodes")),
          "Hourglass writes to a master only; set hourglass.redis-uri to the master (or to"
              + " redis-sentinel://...)");
    }
    Optional<String> bundle = string("ssl.bundle");
    if (bundle.isPresent()) {
      throw new InvalidConfigurationPropertyValueException(
          PREFIX + "ssl.bundle",
          bundle.get(),
          "Hourglass does not use SSL bundles; set hourglass.redis-uri to a rediss:// URI and the"
              + " JVM's trust store");
    }
    boolean ssl = binder.bind(PREFIX + "ssl.enabled", Boolean.class).orElse(false);
    String scheme = ssl ? "rediss://" : "redis://";
    String credentials = credentials(string("username"), string("password"));
    int database = binder.bind(PREFIX + "database", Integer.class).orElse(0);
    Optional<String> master = string("sentinel.master");
    if (master.isPresent()) {
      if (string("sentinel.username").isPresent() || string("sentinel.password").isPresent()) {
        throw new InvalidConfigurationPropertyValueException(
            PREFIX + "sentinel.password",
            "<hidden>",
            "Hourglass reaches sentinels through a redis-sentinel:// URI, which carries the"
                + " credentials of the data nodes only; use sentinels without a password of their"
                + " own, or leave Hourglass out of this Redis");
      }
      if (ssl) {
        throw new InvalidConfigurationPropertyValueException(
            PREFIX + "ssl.enabled",
            "true",
            "Hourglass does not support TLS to Redis through sentinels");
      }
      return "redis-sentinel://"
          + credentials
          + String.join(",", nodes("sentinel.nodes"))
          + "/"
          + database
          + "#"
          + master.get();
    }
    List<String> cluster = nodes("cluster.nodes");
    if (!cluster.isEmpty()) {
      if (ssl) {
        throw new InvalidConfigurationPropertyValueException(
            PREFIX + "ssl.enabled", "true", "Hourglass does not support TLS to a Redis Cluster");
      }
      return "redis-cluster://" + credentials + String.join(",", cluster);
    }
    Optional<String> url = string("url");
    if (url.isPresent()) {
      String u = url.get();
      return ssl && u.startsWith("redis://") ? "rediss://" + u.substring("redis://".length()) : u;
    }
    String host = string("host").orElse("localhost");
    int port = binder.bind(PREFIX + "port", Integer.class).orElse(6379);
    return scheme + credentials + host + ":" + port + "/" + database;
  }

  /** {@code spring.data.redis.connect-timeout}, if set. */
  Optional<Duration> connectTimeout() {
    return binder
        .bind(PREFIX + "connect-timeout", Duration.class)
        .map(Optional::of)
        .orElse(Optional.empty());
  }

  private Optional<String> string(String key) {
    return binder
        .bind(PREFIX + key, String.class)
        .map(Optional::of)
        .orElse(Optional.empty())
        .filter(s -> !s.isBlank());
  }

  private List<String> nodes(String key) {
    List<String> nodes =
        binder.bind(PREFIX + key, Bindable.listOf(String.class)).orElse(List.of()).stream()
            .map(String::strip)
            .filter(s -> !s.isEmpty())
            .toList();
    if (key.startsWith("sentinel") && nodes.isEmpty()) {
      throw new InvalidConfigurationPropertyValueException(
          PREFIX + key,
          "",
          "spring.data.redis.sentinel.master is set, so the sentinels are needed");
    }
    return nodes;
  }

  private static String credentials(Optional<String> username, Optional<String> password) {
    if (password.isEmpty()) {
      return ""; // Redis authenticates a user by name and password; a name alone is not sent
    }
    return username.map(SpringRedisUri::encode).orElse("") + ":" + encode(password.get()) + "@";
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
