package dev.hourglass.embedded;

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

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

  private final Builder settings;
  private final RedisServer master;
  private final List<RedisServer> dataNodes = new ArrayList<>(); // guarded by this
  private final List<RedisServer> sentinels = new ArrayList<>(); // guarded by this
  private boolean failedOver; // guarded by this
  private boolean closed; // guarded by this

  private RedisSentinel(Builder settings) {
    this.settings = settings;
    this.master = settings.dataNode().build();
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
  public static Builder builder() {
    return new Builder();
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
      for (int i = 0; i < settings.replicas; i++) {
        dataNodes.add(
            settings.dataNode().args("--replicaof", RedisServer.HOST, "" + master.port()).build());
      }
    }
    dataNodes.forEach(RedisServer::start);
    if (sentinels.isEmpty()) {
      for (int i = 0; i < settings.sentinels; i++) {
        sentinels.add(
            RedisServer.builder()
                .configFile("sentinel.conf", settings.sentinelConfig(master.port()))
                .args("--sentinel")
                .build());
      }
    }
    sentinels.forEach(RedisServer::start);
    awaitFormed(master);
  }

  /**
   * Until every running replica is in sync with {@code current}, and every sentinel names {@code
   * current}, knows every running replica and every other sentinel.
   */
  private void awaitFormed(RedisServer current) {
    String expected = RedisServer.HOST + "\n" + current.port();
    String peers = ",sentinels=" + sentinels.size();
    RedisProcess.await(
        "the group to form around " + current,
        READY_TIMEOUT,
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
            String known = s.command("SENTINEL", "REPLICAS", MASTER_NAME);
            for (RedisServer replica : replicas) {
              if (!known.contains("\n" + RedisServer.HOST + ":" + replica.port() + "\n")) {
                return false;
              }
            }
          }
          return true;
        });
  }

  private static String masterAddress(RedisServer sentinel) {
    return sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME);
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
    String address = masterAddress(sentinel());
    RedisServer node = nodeAt(address);
    if (node == null) {
      throw new RedisServerException("the sentinel names an unknown master: " + address);
    }
    return node;
  }

  /** The data node at a sentinel's {@code host\nport} answer, or null. */
  private RedisServer nodeAt(String address) {
    for (RedisServer node : dataNodes) {
      if (address.equals(RedisServer.HOST + "\n" + node.port())) {
        return node;
      }
    }
    return null;
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
   * judge it down ({@link Builder#downAfter}). After this, {@link #start()} refuses.
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
    RedisProcess.await(
        "a failover away from " + old, timeout, () -> (promoted[0] = promoted(old)) != null);
    return promoted[0];
  }

  private synchronized RedisServer promoted(RedisServer old) {
    RedisServer first = null;
    for (RedisServer s : sentinels) {
      RedisServer named = nodeAt(masterAddress(s));
      if (named == null || named == old || (first != null && named != first)) {
        return null;
      }
      first = named;
    }
    return first != null && first.isRunning() && first.command("ROLE").startsWith("master")
        ? first
        : null;
  }

  /**
   * Starts a new replica of the current master (persistent if the group is), as an orchestrator
   * replaces a lost node, and waits until it is in sync and every sentinel knows it.
   *
   * @return the new replica
   */
  public synchronized RedisServer addReplica() {
    RedisServer current = currentMaster();
    RedisServer replica =
        settings.dataNode().args("--replicaof", RedisServer.HOST, "" + current.port()).build();
    dataNodes.add(replica);
    replica.start();
    awaitFormed(current);
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
    RedisProcess.closeAll(all);
  }

  @Override
  public synchronized String toString() {
    return "RedisSentinel[data nodes " + dataNodes + ", sentinels " + sentinels + "]";
  }

  /** Configures a {@link RedisSentinel}. Not thread-safe; build on one thread. */
  public static final class Builder {
    private int replicas = 1;
    private int sentinels = 3;
    private int quorum;
    private Duration downAfter = Duration.ofSeconds(1);
    private Duration failoverTimeout = Duration.ofSeconds(10);
    private boolean persistent;

    private Builder() {}

    /**
     * Sets how many replicas the master starts with.
     *
     * @param count 0 to 4
     * @return this builder
     */
    public Builder replicas(int count) {
      if (count < 0 || count > 4) {
        throw new IllegalArgumentException("replicas " + count + ": 0 to 4");
      }
      this.replicas = count;
      return this;
    }

    /**
     * Sets how many sentinels monitor the master.
     *
     * @param count 1 to 5
     * @return this builder
     */
    public Builder sentinels(int count) {
      if (count < 1 || count > 5) {
        throw new IllegalArgumentException("sentinels " + count + ": 1 to 5");
      }
      this.sentinels = count;
      return this;
    }

    /**
     * Sets how many sentinels must agree that the master is down; default a majority.
     *
     * @param count 1 to the number of sentinels
     * @return this builder
     */
    public Builder quorum(int count) {
      if (count < 1) {
        throw new IllegalArgumentException("quorum " + count);
      }
      this.quorum = count;
      return this;
    }

    /**
     * Sets how long the master must fail to answer before a sentinel judges it down ({@code
     * down-after-milliseconds}); default 1 s.
     *
     * @param duration at least 100 ms
     * @return this builder
     */
    public Builder downAfter(Duration duration) {
      if (duration.toMillis() < 100) {
        throw new IllegalArgumentException("downAfter " + duration + ": at least 100 ms");
      }
      this.downAfter = duration;
      return this;
    }

    /**
     * Gives every data node the append-only file, fsynced after every write ({@link
     * RedisServer.Builder#persistent()}).
     *
     * @return this builder
     */
    public Builder persistent() {
      this.persistent = true;
      return this;
    }

    /**
     * Creates the group, not started.
     *
     * @return the group
     * @throws IllegalArgumentException if the quorum exceeds the number of sentinels
     */
    public RedisSentinel build() {
      if (quorum > sentinels) {
        throw new IllegalArgumentException("quorum " + quorum + " > sentinels " + sentinels);
      }
      return new RedisSentinel(this);
    }

    private RedisServer.Builder dataNode() {
      RedisServer.Builder node = RedisServer.builder();
      return persistent ? node.persistent() : node;
    }

    private String sentinelConfig(int masterPort) {
      int votes = quorum > 0 ? quorum : sentinels / 2 + 1;
      return String.join(
          "\n",
          "sentinel monitor "
              + MASTER_NAME
              + " "
              + RedisServer.HOST
              + " "
              + masterPort
              + " "
              + votes,
          "sentinel down-after-milliseconds " + MASTER_NAME + " " + downAfter.toMillis(),
          "sentinel failover-timeout " + MASTER_NAME + " " + failoverTimeout.toMillis(),
          "");
    }
  }
}
