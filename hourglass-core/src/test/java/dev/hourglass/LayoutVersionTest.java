package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.internal.store.Keys;
import org.junit.jupiter.api.Test;

/**
 * The code knows one Redis layout: it writes its version on an empty Redis and refuses one that
 * holds another, naming both, without changing anything.
 */
class LayoutVersionTest extends HourglassTestBase {
  private static final String LAYOUT_KEY = "hg:{meta}:layout";

  @Test
  void anEmptyRedisGetsThisLayoutVersion() {
    live();
    assertThat(redis.server().command("GET", LAYOUT_KEY)).isEqualTo(Keys.LAYOUT_VERSION);
  }

  @Test
  void aRedisHoldingAnotherLayoutIsRefusedNamingBothVersions() {
    redis.server().command("SET", LAYOUT_KEY, "7");
    redis.server().command("HSET", "hg:{q.0}:meta", "pools", "40:staggered");

    assertThatThrownBy(this::live)
        .isInstanceOf(LayoutVersionException.class)
        .hasMessageContaining("layout version 7")
        .hasMessageContaining("layout version " + Keys.LAYOUT_VERSION)
        .hasMessageContaining(LAYOUT_KEY);
    assertThat(redis.server().command("GET", LAYOUT_KEY)).isEqualTo("7");
    assertThat(redis.server().command("HGET", "hg:{q.0}:meta", "pools")).isEqualTo("40:staggered");
  }

  @Test
  void anotherPrefixIsAnotherInstallation() {
    redis.server().command("SET", LAYOUT_KEY, "7");
    Hourglass other = client(b -> b.prefix("other"));
    other.queue("q").enqueue(job("j"));
    assertThat(redis.server().command("GET", "other:{meta}:layout")).isEqualTo(Keys.LAYOUT_VERSION);
  }
}
