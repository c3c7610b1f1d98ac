package dev.hourglass.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
