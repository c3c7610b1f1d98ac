package dev.hourglass.server;

import dev.hourglass.QueueStats;
import dev.hourglass.testing.RedisExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The contract tests' common frame: one Redis per test class (flushed before each test) and a fresh
 * quick-stopping server per test, so server-side caches do not leak between tests.
 */
abstract class ContractTestBase {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  TestServer s;

  @BeforeEach
  void startServer() {
    s = TestServer.startQuickStop(redis.uri());
  }

  @AfterEach
  void stopServer() {
    s.close();
  }

  /** The queue's stats, read through the server's own client. */
  QueueStats stats(String queue) {
    return s.server().hourglass().queue(queue).stats();
  }
}
