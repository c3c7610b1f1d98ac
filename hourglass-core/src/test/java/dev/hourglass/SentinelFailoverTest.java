package dev.hourglass;

import dev.hourglass.embedded.RedisServer;
import dev.hourglass.testing.topology.RedisSentinel;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A Sentinel group's master SIGKILLed under enqueues and claims ({@link FailoverScenario}): a
 * replica is promoted, a new replica replaces the lost node, and the client, found the new master
 * through the sentinels by itself.
 */
class SentinelFailoverTest {

  @Test
  void aKilledMasterIsReplacedWithoutLosingOrStrandingAJob() throws Exception {
    try (RedisSentinel group = RedisSentinel.builder().replicas(1).sentinels(3).build()) {
      group.start();
      try (Hourglass h = FailoverScenario.client(group.sentinelUri())) {
        String figures =
            FailoverScenario.run(
                h.queue("failover"),
                () -> {
                  RedisServer old = group.killMaster();
                  group.awaitFailover(old, Duration.ofMinutes(1));
                  group.addReplica();
                });
        System.out.println("SentinelFailoverTest: " + figures);
      }
    }
  }

  /**
   * A planned failover ({@code SENTINEL FAILOVER}): the old master lives on as a replica, and the
   * client's open connections to it get READONLY for every write instead of a dropped connection.
   */
  @Test
  void aPlannedFailoverMovesTheClientToTheNewMaster() throws Exception {
    try (RedisSentinel group = RedisSentinel.builder().replicas(1).sentinels(3).build()) {
      group.start();
      try (Hourglass h = FailoverScenario.client(group.sentinelUri())) {
        String figures =
            FailoverScenario.run(
                h.queue("planned"),
                () -> {
                  RedisServer old = group.currentMaster();
                  group.sentinel().command("SENTINEL", "FAILOVER", RedisSentinel.MASTER_NAME);
                  group.awaitFailover(old, Duration.ofMinutes(1));
                });
        System.out.println("SentinelFailoverTest planned: " + figures);
      }
    }
  }
}
