package dev.hourglass.testing.topology;

import dev.hourglass.embedded.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the nodes of a {@link RedisSentinel} report: which data node the sentinels name as master,
 * whether the group has formed around it. Stateless; the group passes its nodes, under its lock.
 */
final class SentinelReports {
  private static final Duration FORM_TIMEOUT = Duration.ofSeconds(30);

  private SentinelReports() {}

  /** The {@code host\nport} of the master {@code sentinel} names. */
  static String masterAddress(RedisServer sentinel) {
    return sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", RedisSentinel.MASTER_NAME);
  }

  /** The data node at a sentinel's {@code host\nport} answer, or null. */
  static RedisServer nodeAt(String address, List<RedisServer> dataNodes) {
    for (RedisServer node : dataNodes) {
      if (address.equals(node.host() + "\n" + node.port())) {
        return node;
      }
    }
    return null;
  }

  /**
   * Waits until every running data node other than {@code current} is in sync with it, and every
   * sentinel names {@code current}, knows every such replica and every other sentinel.
   */
  static void awaitFormed(
      RedisServer current, List<RedisServer> dataNodes, List<RedisServer> sentinels) {
    String expected = current.host() + "\n" + current.port();
    String peers = ",sentinels=" + sentinels.size();
    Nodes.await(
        "the group to form around " + current,
        FORM_TIMEOUT,
        () -> {
          List<RedisServer> replicas = new ArrayList<>();
          for (RedisServer node : dataNodes) {
            if (node != current && node.isRunning()) {
              if (!node.command("INFO", "replication").contains("master_link_status:up")) {
                return false;
              }
              replicas.add(node);
            }
          }
          for (RedisServer s : sentinels) {
            if (!expected.equals(masterAddress(s))
                || !s.command("INFO", "sentinel").contains(peers)) {
              return false;
            }
            String known = s.command("SENTINEL", "REPLICAS", RedisSentinel.MASTER_NAME);
            for (RedisServer replica : replicas) {
              if (!known.contains("\n" + replica.host() + ":" + replica.port() + "\n")) {
                return false;
              }
            }
          }
          return true;
        });
  }

  /**
   * The data node every sentinel names as master if it is not {@code old} and answers {@code ROLE}
   * as a master; otherwise null.
   */
  static RedisServer promoted(
      RedisServer old, List<RedisServer> dataNodes, List<RedisServer> sentinels) {
    RedisServer first = null;
    for (RedisServer s : sentinels) {
      RedisServer named = nodeAt(masterAddress(s), dataNodes);
      if (named == null || named == old || (first != null && named != first)) {
        return null;
      }
      first = named;
    }
    return first != null && first.isRunning() && first.command("ROLE").startsWith("master")
        ? first
        : null;
  }
}
