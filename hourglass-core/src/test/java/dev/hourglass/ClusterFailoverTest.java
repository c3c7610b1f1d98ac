package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.embedded.RedisServer;
import dev.hourglass.internal.store.Keys;
import dev.hourglass.testing.topology.RedisCluster;
import dev.hourglass.testing.topology.SlotMigration;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A Redis Cluster with a replica per master under change while jobs flow ({@link
 * FailoverScenario}): a master SIGKILLed and replaced by its replica, and a partition's slot moved
 * to another master step by step (ASK while half moved, MOVED after).
 */
class ClusterFailoverTest {
  private static final int PARTITIONS = 6;

  /** The hash slot of a partition's keys. */
  private static int slotOf(RedisServer node, String queue, int partition) {
    String key =
        new Keys("hg").partition(queue, partition, PARTITIONS, QueueSettings.DEFAULT_POOLS).meta();
    return Integer.parseInt(node.command("CLUSTER", "KEYSLOT", key).strip());
  }

  @Test
  void aKilledMasterIsReplacedWithoutLosingOrStrandingAJob() throws Exception {
    try (RedisCluster cluster =
        RedisCluster.builder().replicasPerMaster(1).nodeTimeout(Duration.ofSeconds(1)).build()) {
      cluster.start();
      try (Hourglass h = FailoverScenario.client(cluster.clusterUri())) {
        Queue<byte[]> queue =
            h.configureQueue("failover", QueueSettings.builder().partitions(PARTITIONS).build());
        RedisServer victim = cluster.nodes().get(0);
        Set<RedisServer> owners = new HashSet<>();
        for (int p = 0; p < PARTITIONS; p++) {
          owners.add(cluster.masterOf(slotOf(victim, "failover", p)));
        }
        assertThat(owners)
            .as("the queue's partitions sit on the master that dies")
            .contains(victim);
        String figures =
            FailoverScenario.run(
                queue,
                () -> {
                  cluster.killMaster(victim);
                  RedisServer promoted = cluster.awaitFailover(victim, Duration.ofMinutes(1));
                  cluster.addReplica(promoted);
                });
        System.out.println("ClusterFailoverTest failover: " + figures);
      }
    }
  }

  @Test
  void aPartitionsSlotMovesToAnotherMasterWhileJobsFlow() throws Exception {
    try (RedisCluster cluster =
        RedisCluster.builder().replicasPerMaster(1).nodeTimeout(Duration.ofSeconds(1)).build()) {
      cluster.start();
      try (Hourglass h = FailoverScenario.client(cluster.clusterUri())) {
        Queue<byte[]> queue =
            h.configureQueue("moving", QueueSettings.builder().partitions(PARTITIONS).build());
        RedisServer any = cluster.nodes().get(0);
        int slot = slotOf(any, "moving", 0);
        RedisServer source = cluster.masterOf(slot);
        RedisServer target =
            cluster.nodes().stream().filter(n -> n != source).findFirst().orElseThrow();
        String figures =
            FailoverScenario.run(
                queue,
                () -> {
                  SlotMigration migration = cluster.migrateSlot(slot, target);
                  // Half moved: a few keys at a time, while producers and the worker go on.
                  while (migration.moveKeys(2) > 0) {
                    Thread.onSpinWait();
                  }
                  migration.finish();
                });
        assertThat(cluster.masterOf(slot)).isSameAs(target);
        assertThat(source.command("CLUSTER", "COUNTKEYSINSLOT", Integer.toString(slot)).strip())
            .isEqualTo("0");
        System.out.println("ClusterFailoverTest migration: " + figures);
      }
    }
  }
}
