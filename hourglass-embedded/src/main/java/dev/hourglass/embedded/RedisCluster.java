package dev.hourglass.embedded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A Redis Cluster for tests: three masters, each owning a third of the 16384 hash slots, and
 * optionally a replica of each ({@link Builder#replicasPerMaster}), all {@link RedisServer}s
 * started with {@code --cluster-enabled yes}.
 *
 * <p>The first {@link #start()} assigns the slots ({@code CLUSTER ADDSLOTS}, which Redis 6.2
 * understands, unlike {@code ADDSLOTSRANGE}), joins the nodes ({@code CLUSTER MEET}), makes each
 * replica follow its master ({@code CLUSTER REPLICATE}) and returns once every node reports {@code
 * cluster_state:ok} and knows every other node. Each node keeps that configuration in {@code
 * nodes.conf} in its data directory, so after {@link #stop()} the cluster comes back with the same
 * ports and slots (without data: the nodes are in memory only), before a failover: after {@link
 * #killMaster} the roles no longer match how the nodes were started, so {@link #start()} refuses
 * and the cluster can only be {@linkplain #close() closed}. {@link #migrateSlot} moves a slot from
 * one master to another step by step, as {@code redis-cli --cluster reshard} does.
 *
 * <pre>{@code
 * try (RedisCluster cluster = RedisCluster.builder().replicasPerMaster(1).build()) {
 *   cluster.start();
 *   RedisClusterClient client = RedisClusterClient.create(cluster.uris().get(0));
 *   RedisServer old = cluster.killMaster(cluster.nodes().get(0));
 *   RedisServer promoted = cluster.awaitFailover(old, Duration.ofSeconds(30));
 *   cluster.addReplica(promoted); // replaces the lost node, as an orchestrator would
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

  private final Duration nodeTimeout;
  private final List<RedisServer> nodes;
  private final List<RedisServer> replicas;
  // Every node ever; changed under this, read without it (allNodes).
  private final List<RedisServer> all = new CopyOnWriteArrayList<>();
  private final Map<RedisServer, Integer> killedSlots = new HashMap<>(); // guarded by this
  private boolean formed; // guarded by this
  private boolean failedOver; // guarded by this
  private boolean closed; // guarded by this

  private RedisCluster(Builder settings) {
    this.nodeTimeout = settings.nodeTimeout;
    List<RedisServer> masters = new ArrayList<>();
    List<RedisServer> followers = new ArrayList<>();
    for (int i = 0; i < MASTERS; i++) {
      masters.add(newNode());
    }
    for (int i = 0; i < MASTERS * settings.replicasPerMaster; i++) {
      followers.add(newNode());
    }
    this.nodes = List.copyOf(masters);
    this.replicas = List.copyOf(followers);
    all.addAll(nodes);
    all.addAll(replicas);
  }

  private RedisServer newNode() {
    return RedisServer.builder()
        .args(
            "--cluster-enabled", "yes",
            "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", Long.toString(nodeTimeout.toMillis()))
        .portChooser(FreePort::findForCluster)
        .build();
  }

  /**
   * Creates a cluster of three in-memory masters without replicas on free ports, with a node
   * timeout of 5 s. It is not started.
   *
   * @return a new, stopped cluster
   */
  public static RedisCluster create() {
    return builder().build();
  }

  /**
   * Returns a builder; defaults: no replicas, a node timeout of 5 s.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts every node, forms the cluster on the first start, and waits until every node reports
   * {@code cluster_state:ok} and knows every other node.
   *
   * @throws RedisServerException if a node does not start or the cluster does not form within 30 s
   * @throws IllegalStateException if the cluster was closed or has failed over
   */
  @Override
  public synchronized void start() {
    if (closed || failedOver) {
      throw new IllegalStateException(this + (closed ? " is closed" : " has failed over"));
    }
    all.forEach(RedisServer::start);
    if (!formed) {
      assignSlots();
      RedisServer first = nodes.get(0);
      for (RedisServer other : all.subList(1, all.size())) {
        first.command("CLUSTER", "MEET", other.host(), Integer.toString(other.port()));
      }
      awaitHealthy();
      for (int i = 0; i < replicas.size(); i++) {
        follow(replicas.get(i), nodes.get(i % MASTERS));
      }
      formed = true;
    }
    awaitHealthy();
  }

  /**
   * Makes {@code replica}, which has joined, a replica of {@code master} and waits for its sync.
   */
  private void follow(RedisServer replica, RedisServer master) {
    replica.command("CLUSTER", "REPLICATE", nodeId(master));
    RedisProcess.await(
        replica + " in sync with " + master,
        FORM_TIMEOUT,
        () -> replica.command("INFO", "replication").contains("master_link_status:up"));
  }

  /**
   * Returns a node's cluster id ({@code CLUSTER MYID}).
   *
   * @param node a running node of this cluster
   * @return its 40-character id
   */
  public String nodeId(RedisServer node) {
    return node.command("CLUSTER", "MYID").strip();
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

  /**
   * Until every running node reports {@code cluster_state:ok} with every slot served and knows
   * every node ever started (a failed one stays known).
   */
  private void awaitHealthy() {
    String known = "cluster_known_nodes:" + all.size();
    RedisProcess.await(
        "cluster_state:ok on every node, knowing " + all.size() + " nodes",
        FORM_TIMEOUT,
        () -> {
          for (RedisServer node : all) {
            if (node.isRunning()) {
              String info = node.command("CLUSTER", "INFO");
              if (!info.contains("cluster_state:ok")
                  || !info.contains("cluster_slots_ok:" + SLOTS)
                  || !info.contains(known)) {
                return false;
              }
            }
          }
          return true;
        });
  }

  /**
   * Crashes a master with {@code SIGKILL}; once the other masters judge it failed (after the node
   * timeout) its replica, if it has one, takes over its slots. After this, {@link #start()}
   * refuses.
   *
   * @param master a running master of this cluster
   * @return {@code master}
   */
  public synchronized RedisServer killMaster(RedisServer master) {
    failedOver = true;
    killedSlots.put(master, firstSlotOf(master));
    master.kill();
    return master;
  }

  /**
   * Waits until a replica has taken over the slots of {@code old} and every running node reports
   * {@code cluster_state:ok} with every slot served.
   *
   * @param old a master {@link #killMaster} killed (any master: one of the first, or a replica that
   *     took over since)
   * @param timeout how long to wait
   * @return the promoted node
   * @throws RedisServerException if that does not happen within {@code timeout}
   */
  public RedisServer awaitFailover(RedisServer old, Duration timeout) {
    int slot = oldSlot(old);
    RedisServer[] promoted = new RedisServer[1];
    RedisProcess.await(
        "a replica taking over slot " + slot + " from " + old,
        timeout,
        () -> {
          synchronized (this) {
            RedisServer owner = masterOf(slot);
            if (owner == old || !owner.command("ROLE").startsWith("master")) {
              return false;
            }
            for (RedisServer node : all) {
              if (node.isRunning()
                  && !node.command("CLUSTER", "INFO").contains("cluster_state:ok")) {
                return false;
              }
            }
            promoted[0] = owner;
            return true;
          }
        });
    return promoted[0];
  }

  /** The first slot {@code old} served when {@link #killMaster} killed it. */
  private synchronized int oldSlot(RedisServer old) {
    Integer slot = killedSlots.get(old);
    if (slot == null) {
      throw new IllegalArgumentException(old + " was not killed by killMaster");
    }
    return slot;
  }

  /**
   * Starts a new node, joins it to the cluster and makes it a replica of {@code master}, as an
   * orchestrator replaces a lost node; waits until it is in sync and every node knows it.
   *
   * @param master a running master
   * @return the new replica
   */
  public synchronized RedisServer addReplica(RedisServer master) {
    RedisServer replica = newNode();
    all.add(replica);
    replica.start();
    master.command("CLUSTER", "MEET", replica.host(), Integer.toString(replica.port()));
    awaitHealthy();
    follow(replica, master);
    awaitHealthy();
    return replica;
  }

  /**
   * Returns the master that serves {@code slot} now, as a running node's {@code CLUSTER NODES}
   * tells.
   *
   * @param slot 0 to 16383
   * @return the master
   * @throws RedisServerException if no node of this cluster serves it
   */
  public synchronized RedisServer masterOf(int slot) {
    for (String[] f : masterLines()) {
      for (int[] range : ranges(f)) {
        if (slot >= range[0] && slot <= range[1]) {
          return byAddress(f[1]);
        }
      }
    }
    throw new RedisServerException("no master serves slot " + slot);
  }

  /** The first slot {@code master} serves now. */
  private int firstSlotOf(RedisServer master) {
    for (String[] f : masterLines()) {
      List<int[]> ranges = ranges(f);
      if (byAddress(f[1]) == master && !ranges.isEmpty()) {
        return ranges.get(0)[0];
      }
    }
    throw new IllegalArgumentException(master + " serves no slot");
  }

  /** The masters' lines of a running node's {@code CLUSTER NODES}, split into fields. */
  private List<String[]> masterLines() {
    RedisServer running = all.stream().filter(RedisServer::isRunning).findFirst().orElseThrow();
    List<String[]> lines = new ArrayList<>();
    for (String line : running.command("CLUSTER", "NODES").split("\n")) {
      String[] f = line.strip().split(" ");
      if (f.length >= 8 && f[2].contains("master")) {
        lines.add(f);
      }
    }
    return lines;
  }

  /** The slot ranges of a {@code CLUSTER NODES} line, {from, to}; slots moving are left out. */
  private static List<int[]> ranges(String[] fields) {
    List<int[]> ranges = new ArrayList<>();
    for (int i = 8; i < fields.length; i++) {
      if (!fields[i].startsWith("[")) { // "[slot->-id]": a slot being imported or migrated
        String[] range = fields[i].split("-");
        int from = Integer.parseInt(range[0]);
        ranges.add(new int[] {from, range.length > 1 ? Integer.parseInt(range[1]) : from});
      }
    }
    return ranges;
  }

  private RedisServer byAddress(String address) {
    String hostPort = address.split("@")[0];
    for (RedisServer node : all) {
      if (hostPort.equals(node.host() + ":" + node.port())) {
        return node;
      }
    }
    throw new RedisServerException("unknown node " + address);
  }

  /**
   * Begins moving {@code slot} from the master that serves it to {@code target}, step by step (see
   * {@link SlotMigration}); the slot stays half-migrated until {@link SlotMigration#finish()}.
   *
   * @param slot 0 to 16383
   * @param target a running master other than the slot's
   * @return the migration, begun
   */
  public synchronized SlotMigration migrateSlot(int slot, RedisServer target) {
    RedisServer source = masterOf(slot);
    if (source == target) {
      throw new IllegalArgumentException(target + " already serves slot " + slot);
    }
    List<RedisServer> masters = new ArrayList<>();
    for (RedisServer node : all) {
      if (node.isRunning() && node.command("ROLE").startsWith("master")) {
        masters.add(node);
      }
    }
    return SlotMigration.begin(this, slot, source, target, masters);
  }

  /** Stops every node gracefully; {@link #start()} brings the cluster back on the same ports. */
  @Override
  public synchronized void stop() {
    all.forEach(RedisServer::stop);
  }

  @Override
  public synchronized boolean isRunning() {
    return all.stream().allMatch(RedisServer::isRunning);
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
   * Returns the masters the cluster was formed with, e.g. to run a command on one ({@link
   * RedisServer#command}) or {@link #killMaster} it.
   *
   * @return the three nodes, in slot order: the first owned slots 0 to 5460
   */
  public List<RedisServer> nodes() {
    return nodes;
  }

  /**
   * Returns the replicas the cluster was formed with: replica {@code i} followed master {@code i %
   * 3}.
   *
   * @return the replicas, empty without them
   */
  public List<RedisServer> replicas() {
    return replicas;
  }

  /**
   * Returns every node ever started: the first masters and replicas, then those {@link #addReplica}
   * added, whatever their roles now and whether or not they run.
   *
   * @return a copy of the list
   */
  public List<RedisServer> allNodes() {
    return List.copyOf(all);
  }

  /** Runs {@code FLUSHALL} on every running master. */
  @Override
  public synchronized void flushAll() {
    for (RedisServer node : all) {
      if (node.isRunning() && node.command("ROLE").startsWith("master")) {
        node.flushAll();
      }
    }
  }

  /** Stops every node for good and deletes their data directories. Calling it twice is harmless. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    RedisProcess.closeAll(all);
  }

  @Override
  public synchronized String toString() {
    return "RedisCluster" + all;
  }

  /** Configures a {@link RedisCluster}. Not thread-safe; build on one thread. */
  public static final class Builder {
    private int replicasPerMaster;
    private Duration nodeTimeout = Duration.ofSeconds(5);

    private Builder() {}

    /**
     * Sets how many replicas each master gets.
     *
     * @param count 0 or 1
     * @return this builder
     */
    public Builder replicasPerMaster(int count) {
      if (count < 0 || count > 1) {
        throw new IllegalArgumentException("replicasPerMaster " + count + ": 0 or 1");
      }
      this.replicasPerMaster = count;
      return this;
    }

    /**
     * Sets {@code cluster-node-timeout}: how long a node may not answer before the others judge it
     * failed and its replica takes over.
     *
     * @param timeout at least 100 ms
     * @return this builder
     */
    public Builder nodeTimeout(Duration timeout) {
      if (timeout.toMillis() < 100) {
        throw new IllegalArgumentException("nodeTimeout " + timeout + ": at least 100 ms");
      }
      this.nodeTimeout = timeout;
      return this;
    }

    /**
     * Creates the cluster, not started.
     *
     * @return the cluster
     */
    public RedisCluster build() {
      return new RedisCluster(this);
    }
  }
}
