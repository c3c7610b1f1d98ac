package dev.hourglass.testing.topology;

import dev.hourglass.embedded.RedisDeployment;
import dev.hourglass.embedded.RedisServer;
import dev.hourglass.embedded.RedisServerException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * A Sentinel group for tests: a master, its replicas and the sentinels that monitor it, each a
 * {@link RedisServer} of the embedded binary on a free port. {@link #create()} gives the smallest
 * group (a master and one sentinel, quorum one), which proves master discovery only; {@link
 * #builder()} gives a group that can fail over: e.g. one or two replicas and three sentinels
 * (quorum two, by default), which {@link #killMaster()} and {@link #awaitFailover} exercise.
 *
 * <pre>{@code
 * try (RedisSentinel group = RedisSentinel.builder().replicas(1).sentinels(3).build()) {
 *   group.start();
 *   RedisClient client = RedisClient.create(group.sentinelUri());
 *   RedisServer old = group.killMaster();
 *   RedisServer promoted = group.awaitFailover(old, Duration.ofSeconds(30));
 *   group.addReplica(); // replaces the lost node, as an orchestrator would
 * }
 * }</pre>
 *
 * <p>{@link #start()} returns once every replica is in sync and every sentinel knows the master,
 * every replica and every other sentinel. {@link #stop()} and {@link #start()} bring the group back
 * on the same ports, before a failover only: after one, the nodes' roles no longer match how they
 * were started, so {@link #start()} refuses and the group can only be {@linkplain #close() closed}.
 * Every process has the watchdog and shutdown hook of {@link RedisServer}, so none outlives the
 * JVM. Threading: safe to use from several threads; methods are serialised.
 */
public final class RedisSentinel implements RedisDeployment {

  /** The name the sentinels know the master by ({@code sentinelMasterId} in Lettuce). */
  public static final String MASTER_NAME = "mymaster";

  private final SentinelSettings settings;
  private final RedisServer master;
  private final List<RedisServer> dataNodes = new ArrayList<>(); // guarded by this
  private final List<RedisServer> sentinels = new ArrayList<>(); // guarded by this
  private boolean failedOver; // guarded by this
  private boolean closed; // guarded by this

  RedisSentinel(SentinelSettings settings) {
    this.settings = settings;
    this.master = settings.master();
    dataNodes.add(master);
  }

  /**
   * Creates an in-memory master and one sentinel (quorum one) on free ports, not started: master
   * discovery without anything to fail over to.
   *
   * @return a new, stopped deployment
   */
  public static RedisSentinel create() {
    return builder().replicas(0).sentinels(1).build();
  }

  /**
   * Returns a builder; defaults: one replica, three sentinels, quorum a majority of them, the
   * master judged down after 1 s, in memory only.
   *
   * @return a new builder
   */
  public static RedisSentinelBuilder builder() {
    return new RedisSentinelBuilder();
  }

  /**
   * Starts the master, then the replicas, then the sentinels, and waits until the group has formed
   * (see the class comment).
   *
   * @throws RedisServerException if a process does not start or the group does not form within 30 s
   * @throws IllegalStateException if the deployment was closed or has failed over
   */
  @Override
  public synchronized void start() {
    if (closed || failedOver) {
      throw new IllegalStateException(this + (closed ? " is closed" : " has failed over"));
    }
    master.start();
    if (dataNodes.size() == 1) {
      for (int i = 0; i < settings.replicas(); i++) {
        dataNodes.add(settings.replicaOf(master));
      }
    }
    dataNodes.forEach(RedisServer::start);
    if (sentinels.isEmpty()) {
      for (int i = 0; i < settings.sentinels(); i++) {
        sentinels.add(settings.sentinelOf(master));
      }
    }
    sentinels.forEach(RedisServer::start);
    SentinelReports.awaitFormed(master, dataNodes, sentinels);
  }

  /**
   * Stops the sentinels, then the data nodes; {@link #start()} brings them back on the same ports.
   */
  @Override
  public synchronized void stop() {
    sentinels.forEach(RedisServer::stop);
    for (int i = dataNodes.size() - 1; i >= 0; i--) {
      dataNodes.get(i).stop();
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return !sentinels.isEmpty()
        && sentinels.stream().allMatch(RedisServer::isRunning)
        && dataNodes.stream().allMatch(RedisServer::isRunning);
  }

  /**
   * Returns the one address a Sentinel client needs: {@link #sentinelUri()}.
   *
   * @return a one-element list
   * @throws IllegalStateException before the first start
   */
  @Override
  public List<String> uris() {
    return List.of(sentinelUri());
  }

  /**
   * Returns every sentinel as one Lettuce URI naming the master: {@code
   * redis-sentinel://127.0.0.1:<port>[,127.0.0.1:<port>...]#mymaster}.
   *
   * @return the URI
   * @throws IllegalStateException before the first start
   */
  public synchronized String sentinelUri() {
    sentinel();
    StringJoiner hosts = new StringJoiner(",", "redis-sentinel://", "#" + MASTER_NAME);
    sentinels.forEach(s -> hosts.add(s.host() + ":" + s.port()));
    return hosts.toString();
  }

  /**
   * Returns the master the group was started with, which stays the master until a failover.
   *
   * @return the first master
   */
  public RedisServer master() {
    return master;
  }

  /**
   * Returns the data node the first sentinel names as master now.
   *
   * @return the current master
   * @throws RedisServerException if the sentinel names a node outside this group
   * @throws IllegalStateException before the first start
   */
  public synchronized RedisServer currentMaster() {
    String address = SentinelReports.masterAddress(sentinel());
    RedisServer node = SentinelReports.nodeAt(address, dataNodes);
    if (node == null) {
      throw new RedisServerException("the sentinel names an unknown master: " + address);
    }
    return node;
  }

  /**
   * Returns the data nodes: the first master, the replicas it was started with, then those {@link
   * #addReplica()} added, whatever their roles now and whether or not they run.
   *
   * @return a copy of the list
   */
  public synchronized List<RedisServer> dataNodes() {
    return List.copyOf(dataNodes);
  }

  /**
   * Returns the sentinels.
   *
   * @return a copy of the list, empty before the first start
   */
  public synchronized List<RedisServer> sentinels() {
    return List.copyOf(sentinels);
  }

  /**
   * Returns the first sentinel.
   *
   * @return the sentinel
   * @throws IllegalStateException before the first start
   */
  public synchronized RedisServer sentinel() {
    if (sentinels.isEmpty()) {
      throw new IllegalStateException("The sentinels are created on the first start()");
    }
    return sentinels.get(0);
  }

  /**
   * Crashes the current master with {@code SIGKILL}; the sentinels promote a replica once they
   * judge it down ({@link RedisSentinelBuilder#downAfter}). After this, {@link #start()} refuses.
   *
   * @return the killed node
   */
  public synchronized RedisServer killMaster() {
    RedisServer current = currentMaster();
    failedOver = true;
    current.kill();
    return current;
  }

  /**
   * Waits until every sentinel names a master other than {@code old} and that node answers {@code
   * ROLE} as a master.
   *
   * @param old the master that failed, e.g. the one {@link #killMaster()} returned
   * @param timeout how long to wait
   * @return the promoted node
   * @throws RedisServerException if that does not happen within {@code timeout}
   */
  public RedisServer awaitFailover(RedisServer old, Duration timeout) {
    synchronized (this) {
      failedOver = true; // roles change under the group even when a sentinel started the failover
    }
    RedisServer[] promoted = new RedisServer[1];
    Nodes.await(
        "a failover away from " + old, timeout, () -> (promoted[0] = promoted(old)) != null);
    return promoted[0];
  }

  private synchronized RedisServer promoted(RedisServer old) {
    return SentinelReports.promoted(old, dataNodes, sentinels);
  }

  /**
   * Starts a new replica of the current master (persistent if the group is), as an orchestrator
   * replaces a lost node, and waits until it is in sync and every sentinel knows it.
   *
   * @return the new replica
   */
  public synchronized RedisServer addReplica() {
    RedisServer current = currentMaster();
    RedisServer replica = settings.replicaOf(current);
    dataNodes.add(replica);
    replica.start();
    SentinelReports.awaitFormed(current, dataNodes, sentinels);
    return replica;
  }

  /** Runs {@code FLUSHALL} on the current master. */
  @Override
  public void flushAll() {
    currentMaster().flushAll();
  }

  /** Stops every process for good and deletes their data directories. Harmless twice. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    List<RedisServer> all = new ArrayList<>(sentinels);
    all.addAll(dataNodes);
    Nodes.closeAll(all);
  }

  @Override
  public synchronized String toString() {
    return "RedisSentinel[data nodes " + dataNodes + ", sentinels " + sentinels + "]";
  }
}
