package dev.hourglass.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The Redis URI built from {@code spring.data.redis.*}, for each shape Boot accepts. */
class SpringRedisUriTest {

  private static String uri(String... keyValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      map.put("spring.data.redis." + keyValues[i], keyValues[i + 1]);
    }
    return new SpringRedisUri(new Binder(new MapConfigurationPropertySource(map))).uri();
  }

  @Test
  void defaultsAreBootDefaults() {
    assertThat(uri()).isEqualTo("redis://localhost:6379/0");
  }

  @Test
  void hostPortDatabaseAndCredentials() {
    assertThat(uri("host", "cache.internal", "port", "6380", "database", "3"))
        .isEqualTo("redis://cache.internal:6380/3");
    assertThat(uri("host", "h", "username", "app", "password", "s3cr:t@x"))
        .isEqualTo("redis://app:s3cr%3At%40x@h:6379/0");
    assertThat(uri("host", "h", "password", "p w")).isEqualTo("redis://:p%20w@h:6379/0");
    assertThat(uri("host", "h", "username", "app")).isEqualTo("redis://h:6379/0");
  }

  @Test
  void sslMakesRediss() {
    assertThat(uri("host", "h", "ssl.enabled", "true")).isEqualTo("rediss://h:6379/0");
    assertThat(uri("url", "redis://u:p@h:1/2", "ssl.enabled", "true"))
        .isEqualTo("rediss://u:p@h:1/2");
  }

  @Test
  void urlWinsOverHostAndPort() {
    assertThat(uri("url", "redis://h1:7000/1", "host", "h2", "port", "7001"))
        .isEqualTo("redis://h1:7000/1");
  }

  @Test
  void sentinel() {
    assertThat(
            uri(
                "sentinel.master", "mymaster",
                "sentinel.nodes", "s1:26379, s2:26380",
                "database", "2",
                "password", "pw"))
        .isEqualTo("redis-sentinel://:pw@s1:26379,s2:26380/2#mymaster");
  }

  @Test
  void sentinelWithItsOwnPasswordIsRefusedClearly() {
    assertThatThrownBy(
            () ->
                uri(
                    "sentinel.master", "m",
                    "sentinel.nodes", "s1:26379",
                    "sentinel.password", "x"))
        .isInstanceOf(InvalidConfigurationPropertyValueException.class)
        .hasMessageContaining("spring.data.redis.sentinel.password");
  }

  @Test
  void sentinelWithoutNodesIsRefusedClearly() {
    assertThatThrownBy(() -> uri("sentinel.master", "m"))
        .isInstanceOf(InvalidConfigurationPropertyValueException.class)
        .hasMessageContaining("spring.data.redis.sentinel.nodes");
  }

  @Test
  void cluster() {
    assertThat(uri("cluster.nodes", "n1:7000,n2:7001", "username", "u", "password", "p"))
        .isEqualTo("redis-cluster://u:p@n1:7000,n2:7001");
  }

  @Test
  void sentinelAndClusterWinOverUrlAsInBoot() {
    assertThat(uri("url", "redis://h:1/0", "sentinel.master", "m", "sentinel.nodes", "s1:26379"))
        .isEqualTo("redis-sentinel://s1:26379/0#m");
    assertThat(uri("url", "redis://h:1/0", "cluster.nodes", "n1:7000"))
        .isEqualTo("redis-cluster://n1:7000");
  }

  @Test
  void whatTheUriCannotCarryIsRefusedClearly() {
    assertThatThrownBy(() -> uri("masterreplica.nodes", "m:6379,r:6380"))
        .isInstanceOf(InvalidConfigurationPropertyValueException.class)
        .hasMessageContaining("spring.data.redis.masterreplica.nodes");
    assertThatThrownBy(() -> uri("host", "h", "ssl.bundle", "corp"))
        .isInstanceOf(InvalidConfigurationPropertyValueException.class)
        .hasMessageContaining("spring.data.redis.ssl.bundle");
  }
}
