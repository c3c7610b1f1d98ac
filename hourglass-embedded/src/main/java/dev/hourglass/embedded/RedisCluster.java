package dev.hourglass.embedded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * A Redis Cluster of three masters and no replicas, for tests: three {@link RedisServer}s started
 * with {@code --cluster-enabled yes}, each owning a third of the 16384 hash slots.
 *
 * <p>The first {@link #start()} assigns the slots ({@code CLUSTER ADDSLOTS}, which Redis 6.2
 * understands, unlike {@code ADDSLOTSRANGE}), joins the nodes ({@code CLUSTER MEET}) and returns
 * once every node reports {@code cluster_state:ok} and knows all three masters. Each node keeps
 * that configuration in {@code nodes.conf} in its data directory, so after {@link #stop()} the
 * cluster comes back with the same ports and slots (without data: the nodes are in memory only).
 *
 * <pre>{@code
 * try (RedisCluster cluster = RedisCluster.create()) {
 *   cluster.start();
 *   RedisClusterClient client = RedisClusterClient.create(cluster.uris().get(0));
 *   ...
 * }
 * }</pre>
 *
 * <p>Every node has the watchdog and shutdown hook of {@link RedisServer}, so no process outlives
 * the JVM. Threading: safe to use from several threads; lifecycle methods are serialised.
 */
public final class RedisCluster implements RedisDeployment {

  /** Number of hash slots in every Redis Cluster. */
  public static final int SLOTS = 16384;

  /** Number of masters this deployment runs. */
  public static final int MASTERS = 3;

  private static final int SLOTS_PER_COMMAND = 1000;
  private static final Duration FORM_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

  private final List<RedisServer> nodes;
  private boolean formed; // guarded by this
  private boolean closed; // guarded by this

  private RedisCluster() {
    List<RedisServer> servers = new ArrayList<>();
    for (int i = 0; i < MASTERS; i++) {
      servers.add(
          RedisServer.builder()
              .args(
                  "--cluster-enabled", "yes",
                  "--cluster-config-file", "nodes.conf",
                  "--cluster-node-timeout", "5000")
              .portChooser(FreePort::findForCluster)
              .build());
    }
    this.nodes = List.copyOf(servers);
  }

  /**
   * Creates a cluster of three in-memory masters on free ports. It is not started.
   *
   * @return a new, stopped cluster
   */
  public static RedisCluster create() {
    return new RedisCluster();
  }

  /**
   * Starts the three nodes, forms the cluster on the first start, and waits until every node
   * reports {@code cluster_state:ok}.
   *
   * @throws RedisServerException if a node does not start or the cluster does not form within 30 s
   * @throws IllegalStateException if the cluster was closed
   */
  @Override
  public synchronized void start() {
    if (closed) {
      throw new IllegalStateException(this + " is closed");
    }
    nodes.forEach(RedisServer::start);
    if (!formed) {
      assignSlots();
      RedisServer first = nodes.get(0);
      for (RedisServer other : nodes.subList(1, nodes.size())) {
        first.command("CLUSTER", "MEET", other.host(), Integer.toString(other.port()));
      }
      formed = true;
    }
    awaitHealthy();
  }

  private void assignSlots() {
    for (int i = 0; i < MASTERS; i++) {
      int from = SLOTS * i / MASTERS;
      int to = SLOTS * (i + 1) / MASTERS;
      for (int start = from; start < to; start += SLOTS_PER_COMMAND) {
        List<String> args = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
        for (int slot = start; slot < Math.min(to, start + SLOTS_PER_COMMAND); slot++) {
          args.add(Integer.toString(slot));
        }
        nodes.get(i).command(args.toArray(new String[0]));
      }
    }
  }

  private void awaitHealthy() {
    long deadline = System.nanoTime() + FORM_TIMEOUT.toNanos();
    String lastInfo = "";
    while (true) {
      boolean healthy = true;
      for (RedisServer node : nodes) {
        String info = node.command("CLUSTER", "INFO");
        if (!isHealthy(info)) {
          healthy = false;
          lastInfo = node + ": " + info;
          break;
        }
      }
      if (healthy) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new RedisServerException(
            "cluster did not reach cluster_state:ok in " + FORM_TIMEOUT + "; last " + lastInfo);
      }
      try {
        Thread.sleep(POLL_INTERVAL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RedisServerException("interrupted while the cluster was forming", e);
      }
    }
  }

  private static boolean isHealthy(String clusterInfo) {
    return clusterInfo.contains("cluster_state:ok")
        && clusterInfo.contains("cluster_slots_ok:" + SLOTS)
        && clusterInfo.contains("cluster_known_nodes:" + MASTERS);
  }

  /** Stops every node gracefully; {@link #start()} brings the cluster back on the same ports. */
  @Override
  public synchronized void stop() {
    nodes.forEach(RedisServer::stop);
  }

  @Override
  public synchronized boolean isRunning() {
    return nodes.stream().allMatch(RedisServer::isRunning);
  }

  /**
   * Returns one {@code redis://127.0.0.1:<port>} URI per master; a cluster client may seed from
   * any.
   *
   * @return the masters' URIs, in node order
   */
  @Override
  public List<String> uris() {
    return nodes.stream().map(RedisServer::uri).toList();
  }

  /**
   * Returns the cluster as one URI for Hourglass: {@code
   * redis-cluster://127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3}.
   *
   * @return the seed list of every master
   * @throws IllegalStateException before the first start
   */
  public String clusterUri() {
    StringJoiner seeds = new StringJoiner(",", "redis-cluster://", "");
    nodes.forEach(n -> seeds.add(n.host() + ":" + n.port()));
    return seeds.toString();
  }

  /**
   * Returns the masters, e.g. to run a command on one ({@link RedisServer#command}) or {@link
   * RedisServer#kill()} it.
   *
   * @return the three nodes, in slot order: the first owns slots 0 to 5460
   */
  public List<RedisServer> nodes() {
    return nodes;
  }

  /** Runs {@code FLUSHALL} on every master. */
  @Override
  public void flushAll() {
    nodes.forEach(RedisServer::flushAll);
  }

  /** Stops every node for good and deletes their data directories. Calling it twice is harmless. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    RuntimeException failure = null;
    for (RedisServer node : nodes) {
      try {
        node.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public String toString() {
    return "RedisCluster" + nodes;
  }
}
