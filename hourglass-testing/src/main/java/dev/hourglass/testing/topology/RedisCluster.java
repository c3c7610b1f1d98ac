package dev.hourglass.testing.topology;

import dev.hourglass.embedded.RedisDeployment;
import dev.hourglass.embedded.RedisServer;
import dev.hourglass.embedded.RedisServerException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A Redis Cluster for tests: three masters, each owning a third of the 16384 hash slots, and
 * optionally a replica of each ({@link RedisClusterBuilder#replicasPerMaster}), all {@link
 * RedisServer}s started with {@code --cluster-enabled yes}.
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

  private final ClusterNodeTemplate template;
  private final List<RedisServer> nodes;
  private final List<RedisServer> replicas;
  // Every node ever; changed under this, read without it (allNodes).
  private final List<RedisServer> all = new CopyOnWriteArrayList<>();
  private final Map<RedisServer, Integer> killedSlots = new HashMap<>(); // guarded by this
  private boolean formed; // guarded by this
  private boolean failedOver; // guarded by this
  private boolean closed; // guarded by this

  RedisCluster(int replicasPerMaster, ClusterNodeTemplate template) {
    this.template = template;
    List<RedisServer> masters = new ArrayList<>();
    List<RedisServer> followers = new ArrayList<>();
    for (int i = 0; i < MASTERS; i++) {
      masters.add(template.newNode());
    }
    for (int i = 0; i < MASTERS * replicasPerMaster; i++) {
      followers.add(template.newNode());
    }
    this.nodes = List.copyOf(masters);
    this.replicas = List.copyOf(followers);
    all.addAll(nodes);
    all.addAll(replicas);
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
  public static RedisClusterBuilder builder() {
    return new RedisClusterBuilder();
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
      ClusterNodes.form(nodes, replicas, all);
      formed = true;
    }
    ClusterNodes.awaitHealthy(all);
  }

  /**
   * Returns a node's cluster id ({@code CLUSTER MYID}).
   *
   * @param node a running node of this cluster
   * @return its 40-character id
   */
  public String nodeId(RedisServer node) {
    return ClusterNodes.nodeId(node);
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
    killedSlots.put(master, SlotOwners.read(all).firstSlotOf(master));
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
    Nodes.await(
        "a replica taking over slot " + slot + " from " + old,
        timeout,
        () -> (promoted[0] = tookOver(slot, old)) != null);
    return promoted[0];
  }

  private synchronized RedisServer tookOver(int slot, RedisServer old) {
    return ClusterNodes.tookOver(slot, old, all);
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
    RedisServer replica = template.newNode();
    all.add(replica);
    replica.start();
    ClusterNodes.meet(master, replica);
    ClusterNodes.awaitHealthy(all);
    ClusterNodes.follow(replica, master);
    ClusterNodes.awaitHealthy(all);
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
    return SlotOwners.read(all).masterOf(slot);
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
    return SlotMigration.begin(slot, source, target, Nodes.runningMasters(all));
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
    Nodes.runningMasters(all).forEach(RedisServer::flushAll);
  }

  /** Stops every node for good and deletes their data directories. Calling it twice is harmless. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    Nodes.closeAll(all);
  }

  @Override
  public synchronized String toString() {
    return "RedisCluster" + all;
  }
}
