package dev.hourglass.testing.topology;

import dev.hourglass.embedded.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How the nodes of a {@link RedisCluster} are joined, and what they report about the cluster's
 * health. Stateless; the cluster passes its nodes and serialises the calls.
 */
final class ClusterNodes {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final int SLOTS_PER_COMMAND = 1000;

  private ClusterNodes() {}

  /**
   * Forms a cluster of running nodes that have never been joined: splits the slots between {@code
   * masters} ({@code CLUSTER ADDSLOTS}, which Redis 6.2 understands, unlike {@code ADDSLOTSRANGE}),
   * joins every node of {@code all} ({@code CLUSTER MEET}) and makes replica {@code i} follow
   * master {@code i % masters}.
   */
  static void form(List<RedisServer> masters, List<RedisServer> replicas, List<RedisServer> all) {
    for (int i = 0; i < masters.size(); i++) {
      assignSlots(masters.get(i), i, masters.size());
    }
    RedisServer first = masters.get(0);
    for (RedisServer other : all.subList(1, all.size())) {
      meet(first, other);
    }
    awaitHealthy(all);
    for (int i = 0; i < replicas.size(); i++) {
      follow(replicas.get(i), masters.get(i % masters.size()));
    }
  }

  private static void assignSlots(RedisServer master, int index, int masters) {
    int from = RedisCluster.SLOTS * index / masters;
    int to = RedisCluster.SLOTS * (index + 1) / masters;
    for (int start = from; start < to; start += SLOTS_PER_COMMAND) {
      List<String> args = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
      for (int slot = start; slot < Math.min(to, start + SLOTS_PER_COMMAND); slot++) {
        args.add(Integer.toString(slot));
      }
      master.command(args.toArray(new String[0]));
    }
  }

  /** Tells {@code member}, a node of the cluster, to join {@code joining} to it. */
  static void meet(RedisServer member, RedisServer joining) {
    member.command("CLUSTER", "MEET", joining.host(), Integer.toString(joining.port()));
  }

  /**
   * Makes {@code replica}, which has joined, a replica of {@code master} and waits for its sync.
   */
  static void follow(RedisServer replica, RedisServer master) {
    replica.command("CLUSTER", "REPLICATE", nodeId(master));
    Nodes.await(
        replica + " in sync with " + master,
        TIMEOUT,
        () -> replica.command("INFO", "replication").contains("master_link_status:up"));
  }

  /** A node's cluster id ({@code CLUSTER MYID}). */
  static String nodeId(RedisServer node) {
    return node.command("CLUSTER", "MYID").strip();
  }

  /**
   * Waits until every running node of {@code all} reports {@code cluster_state:ok} with every slot
   * served and knows every node of {@code all} (a failed one stays known).
   */
  static void awaitHealthy(List<RedisServer> all) {
    String known = "cluster_known_nodes:" + all.size();
    Nodes.await(
        "cluster_state:ok on every node, knowing " + all.size() + " nodes",
        TIMEOUT,
        () -> {
          for (RedisServer node : all) {
            if (node.isRunning()) {
              String info = node.command("CLUSTER", "INFO");
              if (!info.contains("cluster_state:ok")
                  || !info.contains("cluster_slots_ok:" + RedisCluster.SLOTS)
                  || !info.contains(known)) {
                return false;
              }
            }
          }
          return true;
        });
  }

  /**
   * The master now serving {@code slot}, which {@code old} served, if it is another node that
   * answers {@code ROLE} as a master and every running node of {@code all} reports {@code
   * cluster_state:ok}; otherwise null.
   */
  static RedisServer tookOver(int slot, RedisServer old, List<RedisServer> all) {
    RedisServer owner = SlotOwners.read(all).masterOf(slot);
    if (owner == old || !owner.command("ROLE").startsWith("master")) {
      return null;
    }
    for (RedisServer node : all) {
      if (node.isRunning() && !node.command("CLUSTER", "INFO").contains("cluster_state:ok")) {
        return null;
      }
    }
    return owner;
  }
}
