package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.embedded.RedisServer;
import dev.hourglass.testing.OldRedis;
import dev.hourglass.testing.topology.RedisCluster;
import org.junit.jupiter.api.Test;

/**
 * A Redis older than the oldest supported (6.2) is refused when the client connects, before it
 * writes anything: on a real Redis 6.0.5 ({@link OldRedis}), alone and as a Redis Cluster.
 */
class RedisVersionTest {

  @Test
  void refusesARedisOlderThanTheOldestSupportedBeforeWritingAnything() {
    try (RedisServer old = RedisServer.builder().binary(OldRedis.binary()).build()) {
      old.start();

      assertThatThrownBy(() -> Hourglass.builder().redisUri(old.uri()).build())
          .isInstanceOfSatisfying(
              RedisVersionException.class,
              e -> {
                assertThat(e.server()).isEqualTo("Redis " + OldRedis.VERSION);
                assertThat(e.address()).isEqualTo("127.0.0.1:" + old.port());
              })
          .hasMessage(
              "Redis 6.0.5 at 127.0.0.1:"
                  + old.port()
                  + " is older than 6.2, the oldest Hourglass supports; upgrade it"
                  + " (docs/COMPATIBILITY.md)");
      assertThat(old.command("DBSIZE")).isEqualTo("0");
    }
  }

  @Test
  void refusesARedisClusterWhoseNodesAreTooOld() {
    try (RedisCluster cluster = RedisCluster.builder().binary(OldRedis.binary()).build()) {
      cluster.start();

      assertThatThrownBy(() -> Hourglass.builder().redisUri(cluster.clusterUri()).build())
          .isInstanceOf(RedisVersionException.class)
          .hasMessageStartingWith("Redis 6.0.5 at 127.0.0.1:")
          .hasMessageEndingWith(
              " is older than 6.2, the oldest Hourglass supports; upgrade it"
                  + " (docs/COMPATIBILITY.md)");
      for (RedisServer node : cluster.nodes()) {
        assertThat(node.command("DBSIZE")).isEqualTo("0");
      }
    }
  }

  @Test
  void aClusterWithAReplicaDownStillConnects() {
    try (RedisCluster cluster = RedisCluster.builder().replicasPerMaster(1).build()) {
      cluster.start();
      cluster.replicas().get(0).kill();

      try (Hourglass hourglass = Hourglass.builder().redisUri(cluster.clusterUri()).build()) {
        Queue<String> queue = hourglass.queue("replica-down", String.class);
        queue.enqueue(queue.spec("x").id("one").build());
        assertThat(queue.get("one")).isPresent();
      }
    }
  }
}
