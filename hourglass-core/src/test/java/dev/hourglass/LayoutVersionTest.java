package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    assertThat(redis.server().command("GET", LAYOUT_KEY)).isEqualTo("7");
  }

  @Test
  void aRedisHoldingAnotherLayoutIsRefusedNamingBothVersions() {
    redis.server().command("SET", LAYOUT_KEY, "6");
    redis.server().command("HSET", "hg:{q.0}:meta", "pools", "40:staggered");

    assertThatThrownBy(this::live)
        .isInstanceOf(LayoutVersionException.class)
        .hasMessageContaining("layout version 6")
        .hasMessageContaining("layout version 7")
        .hasMessageContaining(LAYOUT_KEY);
    assertThat(redis.server().command("GET", LAYOUT_KEY)).isEqualTo("6");
    assertThat(redis.server().command("HGET", "hg:{q.0}:meta", "pools")).isEqualTo("40:staggered");
  }

  @Test
  void anotherPrefixIsAnotherInstallation() {
    redis.server().command("SET", LAYOUT_KEY, "6");
    Hourglass other = client(b -> b.prefix("other"));
    other.queue("q").enqueue(job("j"));
    assertThat(redis.server().command("GET", "other:{meta}:layout")).isEqualTo("7");
  }
}
