package dev.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.embedded.RedisServer;
import dev.hourglass.server.config.ConfigLoader;
import dev.hourglass.server.config.ServerConfig;
import dev.hourglass.testing.topology.RedisSentinel;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server on {@code --redis redis-sentinel://host:port#master}: Lettuce asks the sentinel for
 * the master and talks to it. Master discovery only; failover (no replicas here) is not tested.
 */
class SentinelRedisTest {
  private static RedisSentinel group;

  @BeforeAll
  static void startSentinel() {
    group = RedisSentinel.create();
    group.start();
  }

  @AfterAll
  static void stopSentinel() {
    group.close();
  }

  @Test
  void acceptsASentinelUriListingSeveralSentinels() {
    String uri = "redis-sentinel://10.0.0.1:26379,10.0.0.2:26379,10.0.0.3:26379#mymaster";
    ServerConfig config = ConfigLoader.load(Map.of("redis", uri), Map.of(), null);
    assertThat(config.redisUri()).isEqualTo(Optional.of(uri));
  }

  @Test
  void movesOnToTheNextSentinelWhenTheFirstIsDown() throws IOException {
    int nobody;
    try (ServerSocket probe = new ServerSocket(0)) {
      nobody = probe.getLocalPort();
    }
    RedisServer sentinel = group.sentinel();
    String uri =
        "redis-sentinel://127.0.0.1:"
            + nobody
            + ","
            + sentinel.host()
            + ":"
            + sentinel.port()
            + "#"
            + RedisSentinel.MASTER_NAME;
    try (TestServer s = TestServer.startQuickStop(uri)) {
      RoundTrip.enqueueClaimAck(s, "second-sentinel");
    }
  }

  @Test
  void enqueueClaimAckThroughTheSentinel() {
    String uri = group.sentinelUri();
    assertThat(uri).startsWith("redis-sentinel://").endsWith("#" + RedisSentinel.MASTER_NAME);
    try (TestServer s = TestServer.startQuickStop(uri)) {
      RoundTrip.enqueueClaimAck(s, "via-sentinel");
    }
    // The job went to the master the sentinel named, not somewhere else.
    assertThat(group.master().command("KEYS", "*via-sentinel*")).isNotBlank();
  }
}
