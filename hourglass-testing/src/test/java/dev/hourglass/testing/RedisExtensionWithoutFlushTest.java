package dev.hourglass.testing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisExtensionWithoutFlushTest {

  @RegisterExtension static RedisExtension redis = RedisExtension.standalone().withoutFlush();

  @Test
  @Order(1)
  void writesAKey() {
    redis.server().command("SET", "kept", "1");
  }

  @Test
  @Order(2)
  void nextTestStillSeesIt() {
    assertThat(redis.server().command("GET", "kept")).isEqualTo("1");
  }
}
