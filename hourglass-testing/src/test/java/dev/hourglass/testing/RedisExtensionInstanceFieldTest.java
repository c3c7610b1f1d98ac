package dev.hourglass.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.embedded.RedisServer;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A non-static field gives every test its own server, started and closed around it. */
class RedisExtensionInstanceFieldTest {

  private static final Set<Long> PIDS = new HashSet<>();

  @RegisterExtension
  RedisExtension redis =
      RedisExtension.of(() -> RedisServer.builder().args("--databases", "4").build());

  @BeforeEach
  void serverIsUpBeforeEachMethod(RedisServer server) {
    assertThat(server.isRunning()).isTrue();
  }

  @RepeatedTest(2)
  void eachTestGetsAFreshServer(RedisServer server) {
    assertThat(server).isSameAs(redis.server());
    assertThat(server.command("CONFIG", "GET", "databases")).isEqualTo("databases\n4");
    assertThat(server.command("DBSIZE")).isEqualTo("0");
    server.command("SET", "mine", "1");
    PIDS.add(server.pid());
  }

  @AfterAll
  static void serversWereDistinctAndAreGone() {
    assertThat(PIDS).hasSize(2);
    for (long pid : PIDS) {
      assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
    }
  }
}
