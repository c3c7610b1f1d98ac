package dev.hourglass.testing.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hourglass.embedded.RedisCommandException;
import dev.hourglass.embedded.RedisServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedisClusterTest {

  @Test
  void formsAClusterOfThreeMastersOwningAllSlots() {
    try (RedisCluster cluster = RedisCluster.create()) {
      cluster.start();

      assertThat(cluster.isRunning()).isTrue();
      List<RedisServer> nodes = cluster.nodes();
      assertThat(nodes).hasSize(3);
      for (RedisServer node : nodes) {
        String info = node.command("CLUSTER", "INFO");
        assertThat(info).contains("cluster_state:ok", "cluster_slots_assigned:16384");
        assertThat(info).contains("cluster_known_nodes:3", "cluster_size:3");
      }
      assertThat(cluster.uris())
          .containsExactly(nodes.get(0).uri(), nodes.get(1).uri(), nodes.get(2).uri());
      assertThat(cluster.clusterUri())
          .isEqualTo(
              "redis-cluster://127.0.0.1:%d,127.0.0.1:%d,127.0.0.1:%d",
              nodes.get(0).port(), nodes.get(1).port(), nodes.get(2).port());
    }
  }

  @Test
  void eachNodeServesItsOwnSlotsAndRedirectsTheOthers() {
    try (RedisCluster cluster = RedisCluster.create()) {
      cluster.start();
      RedisServer first = cluster.nodes().get(0);

      // slot of "a" is 15495, owned by the third node; "{b}" hashes to 3300, the first node's.
      assertThat(first.command("CLUSTER", "KEYSLOT", "a")).isEqualTo("15495");
      assertThat(first.command("SET", "{b}x", "1")).isEqualTo("OK");
      assertThatThrownBy(() -> first.command("SET", "a", "1"))
          .isInstanceOf(RedisCommandException.class)
          .hasMessageContaining("MOVED 15495");
      assertThat(cluster.nodes().get(2).command("SET", "a", "1")).isEqualTo("OK");

      cluster.flushAll();
      for (RedisServer node : cluster.nodes()) {
        assertThat(node.command("DBSIZE")).isEqualTo("0");
      }
    }
  }

  @Test
  void startsEveryNodeThroughTheLauncher() throws Exception {
    assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "reads /proc/<pid>/stat");
    // nice runs redis-server in its own process, as valgrind does, at a lower priority
    try (RedisCluster cluster =
        RedisCluster.builder()
            .launcher("nice", "-n", "7")
            .startupTimeout(Duration.ofSeconds(30))
            .build()) {
      cluster.start();

      for (RedisServer node : cluster.nodes()) {
        String stat = Files.readString(Path.of("/proc/" + node.pid() + "/stat"));
        String[] afterName = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        assertThat(Integer.parseInt(afterName[16]))
            .isEqualTo(Math.min(19, niceness() + 7)); // field 19
      }
    }
    assertThatThrownBy(() -> RedisCluster.builder().startupTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("startupTimeout PT0S: must be positive");
  }

  private static int niceness() throws Exception {
    String stat = Files.readString(Path.of("/proc/self/stat"));
    return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16]);
  }

  @Test
  void restartsOnTheSamePortsWithTheSameSlots() {
    try (RedisCluster cluster = RedisCluster.create()) {
      cluster.start();
      String uri = cluster.clusterUri();

      cluster.stop();
      assertThat(cluster.isRunning()).isFalse();
      cluster.start();

      assertThat(cluster.clusterUri()).isEqualTo(uri);
      assertThat(cluster.nodes().get(2).command("SET", "a", "1")).isEqualTo("OK");
    }
  }

  @Test
  void closeEndsEveryNodeAndCannotStartAgain() {
    RedisCluster cluster = RedisCluster.create();
    cluster.start();
    List<Long> pids = new ArrayList<>();
    cluster.nodes().forEach(n -> pids.add(n.pid()));

    cluster.close();
    cluster.close();

    for (long pid : pids) {
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }
    assertThatThrownBy(cluster::start).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aKilledMasterIsReplacedByItsReplicaAndAnAddedReplicaFollowsIt() {
    List<Long> pids = new ArrayList<>();
    try (RedisCluster cluster =
        RedisCluster.builder().replicasPerMaster(1).nodeTimeout(Duration.ofSeconds(1)).build()) {
      cluster.start();
      RedisServer first = cluster.nodes().get(0);
      RedisServer replica = cluster.replicas().get(0);
      assertThat(replica.command("ROLE")).startsWith("slave");
      assertThat(first.command("CLUSTER", "INFO")).contains("cluster_known_nodes:6");
      assertThat(cluster.masterOf(3300)).isSameAs(first);
      first.command("SET", "{b}x", "1");
      first.command("WAIT", "1", "5000");

      assertThat(cluster.killMaster(first)).isSameAs(first);
      RedisServer promoted = cluster.awaitFailover(first, Duration.ofMinutes(1));

      assertThat(promoted).isSameAs(replica);
      assertThat(cluster.masterOf(3300)).isSameAs(replica);
      assertThat(replica.command("GET", "{b}x")).isEqualTo("1");
      RedisServer added = cluster.addReplica(promoted);
      assertThat(added.command("ROLE")).startsWith("slave");
      assertThat(added.command("INFO", "replication")).contains("master_port:" + promoted.port());
      assertThat(cluster.allNodes()).hasSize(7).contains(added);

      // A master that was a replica fails over too: to the replica added for it.
      cluster.killMaster(promoted);
      assertThat(cluster.awaitFailover(promoted, Duration.ofMinutes(1))).isSameAs(added);
      assertThat(added.command("GET", "{b}x")).isEqualTo("1");
      assertThatThrownBy(cluster::start).isInstanceOf(IllegalStateException.class);
      for (RedisServer node : List.of(added, cluster.nodes().get(1))) {
        pids.add(node.pid());
      }
    }
    for (long pid : pids) {
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }
  }

  @Test
  void aSlotMovesStepByStepWithAskRedirectsWhileHalfMoved() {
    try (RedisCluster cluster = RedisCluster.create()) {
      cluster.start();
      RedisServer first = cluster.nodes().get(0);
      RedisServer second = cluster.nodes().get(1);
      for (int i = 0; i < 5; i++) {
        first.command("SET", "{b}" + i, "v" + i);
      }

      SlotMigration migration = cluster.migrateSlot(3300, second);
      assertThat(migration.moveKeys(2)).isEqualTo(2);
      String moved = first.command("CLUSTER", "GETKEYSINSLOT", "3300", "10");
      assertThat(moved.split("\n")).hasSize(3);
      String gone =
          List.of("{b}0", "{b}1", "{b}2", "{b}3", "{b}4").stream()
              .filter(k -> !moved.contains(k))
              .findFirst()
              .orElseThrow();
      assertThatThrownBy(() -> first.command("GET", gone))
          .isInstanceOf(RedisCommandException.class)
          .hasMessageContaining("ASK 3300");
      assertThat(cluster.masterOf(3300)).isSameAs(first);

      migration.finish();

      assertThat(cluster.masterOf(3300)).isSameAs(second);
      assertThat(second.command("DBSIZE")).isEqualTo("5");
      assertThat(first.command("DBSIZE")).isEqualTo("0");
      assertThatThrownBy(() -> first.command("GET", "{b}0"))
          .isInstanceOf(RedisCommandException.class)
          .hasMessageContaining("MOVED 3300");
      assertThat(cluster.nodes().get(2).command("CLUSTER", "NODES")).contains("3300");
    }
  }
}
