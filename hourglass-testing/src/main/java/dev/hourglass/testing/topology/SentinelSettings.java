package dev.hourglass.testing.topology;

import dev.hourglass.embedded.RedisServer;
import dev.hourglass.embedded.RedisServerBuilder;
import java.time.Duration;

/**
 * The configuration of a {@link RedisSentinel}, fixed when it is built, and the nodes it gives.
 *
 * @param replicas how many replicas the master starts with
 * @param sentinels how many sentinels monitor it
 * @param quorum how many sentinels must agree that the master is down
 * @param downAfter how long the master must fail to answer before a sentinel judges it down
 * @param persistent whether data nodes write an AOF with {@code appendfsync always}
 */
record SentinelSettings(
    int replicas, int sentinels, int quorum, Duration downAfter, boolean persistent) {

  /** The sentinels' {@code failover-timeout}. */
  private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(10);

  /** A data node, not started, to be the master. */
  RedisServer master() {
    return dataNode().build();
  }

  /** A data node, not started, that replicates {@code master}. */
  RedisServer replicaOf(RedisServer master) {
    return dataNode().args("--replicaof", master.host(), "" + master.port()).build();
  }

  /** A sentinel, not started, monitoring {@code master}. */
  RedisServer sentinelOf(RedisServer master) {
    return RedisServer.builder()
        .configFile("sentinel.conf", sentinelConfig(master))
        .args("--sentinel")
        .build();
  }

  private RedisServerBuilder dataNode() {
    RedisServerBuilder node = RedisServer.builder();
    return persistent ? node.persistent() : node;
  }

  private String sentinelConfig(RedisServer master) {
    String name = RedisSentinel.MASTER_NAME;
    return String.join(
        "\n",
        "sentinel monitor " + name + " " + master.host() + " " + master.port() + " " + quorum,
        "sentinel down-after-milliseconds " + name + " " + downAfter.toMillis(),
        "sentinel failover-timeout " + name + " " + FAILOVER_TIMEOUT.toMillis(),
        "");
  }
}
