package dev.hourglass.bench;

import dev.hourglass.QueueSettings;
import dev.hourglass.embedded.RedisServer;
import dev.hourglass.testing.topology.RedisSentinel;
import dev.hourglass.testing.topology.RedisSentinelBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * A Sentinel group ({@link RedisSentinel}): a master, two replicas and three sentinels (the master
 * judged down after 2 s), data nodes with AOF always unless {@code --aof off}; every client uses
 * the sentinels' URI. The soak queue has replica-acknowledged writes (one replica): an acknowledged
 * enqueue survives the master's death. Faults: the master SIGKILLed (the sentinels promote a
 * replica; then a replacement replica is started, as an orchestrator would), a replica SIGKILLed
 * (replaced after 0.5 to 2 s), a sentinel SIGKILLed (restarted after 0.5 to 2 s), a data node
 * stalled (SIGSTOP for 0.3 to 1.5 s, under the down-after time: no failover).
 */
final class SentinelTopology implements SoakTopology {
  private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(90);

  private final RedisSentinel group;
  private final boolean aof;

  SentinelTopology(boolean aof) {
    RedisSentinelBuilder builder =
        RedisSentinel.builder().replicas(2).sentinels(3).downAfter(Duration.ofSeconds(2));
    this.group = (aof ? builder.persistent() : builder).build();
    this.aof = aof;
  }

  @Override
  public String name() {
    return "sentinel";
  }

  @Override
  public void start() {
    group.start();
  }

  @Override
  public String clientUri() {
    return group.sentinelUri();
  }

  @Override
  public String producerUri() {
    return group.sentinelUri();
  }

  @Override
  public String describe() {
    return "sentinel group "
        + group.sentinelUri()
        + ": master "
        + group.currentMaster().port()
        + ", 2 replicas, 3 sentinels"
        + (aof ? " (AOF, appendfsync always)" : " (no AOF)")
        + "; queue with replicaAcks 1: an acknowledged write is on a replica too, so lost must be 0";
  }

  @Override
  public QueueSettings queueSettings() {
    return QueueSettings.builder().replicaAcks(1).build();
  }

  @Override
  public List<String> faultKinds() {
    return List.of("master-kill", "replica-kill", "sentinel-kill", "redis-stall");
  }

  @Override
  public String inject(String kind, Random random) throws InterruptedException {
    switch (kind) {
      case "master-kill" -> {
        RedisServer old = group.killMaster();
        RedisServer promoted = group.awaitFailover(old, FAILOVER_TIMEOUT);
        RedisServer replacement = group.addReplica();
        return "master:" + old.port() + "->" + promoted.port() + "+" + replacement.port();
      }
      case "replica-kill" -> {
        long pauseMs = 500 + random.nextInt(1501);
        List<RedisServer> replicas = replicas();
        RedisServer victim = replicas.get(random.nextInt(replicas.size()));
        victim.kill();
        SoakTopology.sleep(pauseMs);
        RedisServer replacement = group.addReplica();
        return "replica:" + victim.port() + "+" + replacement.port();
      }
      case "sentinel-kill" -> {
        long pauseMs = 500 + random.nextInt(1501);
        List<RedisServer> sentinels = group.sentinels();
        RedisServer victim = sentinels.get(random.nextInt(sentinels.size()));
        victim.kill();
        SoakTopology.sleep(pauseMs);
        victim.start();
        return "sentinel:" + victim.port();
      }
      case "redis-stall" -> {
        long pauseMs = 300 + random.nextInt(1201);
        boolean master = random.nextBoolean();
        List<RedisServer> replicas = replicas();
        RedisServer victim =
            master ? group.currentMaster() : replicas.get(random.nextInt(replicas.size()));
        victim.pause();
        SoakTopology.hold(pauseMs, victim::resume);
        return (master ? "master:" : "replica:") + victim.port();
      }
      default -> throw new IllegalArgumentException(kind);
    }
  }

  /** The running data nodes other than the current master. */
  private List<RedisServer> replicas() {
    RedisServer master = group.currentMaster();
    return group.dataNodes().stream().filter(n -> n != master && n.isRunning()).toList();
  }

  @Override
  public void ensureRunning() {
    for (RedisServer sentinel : group.sentinels()) {
      if (!sentinel.isRunning()) {
        sentinel.start();
      }
    }
    while (replicas().size() < 2) {
      group.addReplica();
    }
  }

  @Override
  public void close() {
    group.close();
  }
}
