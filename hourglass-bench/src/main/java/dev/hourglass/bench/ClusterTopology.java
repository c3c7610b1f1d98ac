package dev.hourglass.bench;

import dev.hourglass.QueueSettings;
import dev.hourglass.embedded.RedisServer;
import dev.hourglass.keyspace.Keyspace;
import dev.hourglass.testing.topology.RedisCluster;
import dev.hourglass.testing.topology.SlotMigration;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.StringJoiner;

/**
 * A Redis Cluster ({@link RedisCluster}): three masters with a replica each, a node timeout of 3 s,
 * in memory (the fixture has no AOF); every client uses the cluster URI. The soak queue has three
 * partitions (its keys on every master) and replica-acknowledged writes (one replica). Faults: a
 * master SIGKILLed (its replica promoted, then a replacement replica joined to it, as an
 * orchestrator would), a replica SIGKILLed (replaced after 0.5 to 2 s), a master stalled (SIGSTOP
 * for 0.3 to 1.5 s, under the node timeout), and a partition's slot migrated to another master key
 * by key (ASK while half moved, MOVED after).
 */
final class ClusterTopology implements SoakTopology {
  private static final int PARTITIONS = 3;
  private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(90);

  private final RedisCluster cluster =
      RedisCluster.builder().replicasPerMaster(1).nodeTimeout(Duration.ofSeconds(3)).build();

  @Override
  public String name() {
    return "cluster";
  }

  @Override
  public void start() {
    cluster.start();
  }

  /**
   * The running nodes as seeds: a JVM restarted after the first masters died must not be given only
   * dead seeds (as an orchestrator updates the address clients are configured with).
   */
  @Override
  public String clientUri() {
    StringJoiner seeds = new StringJoiner(",", "redis-cluster://", "");
    for (RedisServer node : cluster.allNodes()) {
      if (node.isRunning()) {
        seeds.add(node.host() + ":" + node.port());
      }
    }
    return seeds.toString();
  }

  @Override
  public String producerUri() {
    return cluster.clusterUri();
  }

  @Override
  public String describe() {
    return "cluster "
        + cluster.clusterUri()
        + " (a JVM started later gets the nodes running then as seeds): 3 masters with a replica each (no AOF: the fixture runs in memory); queue with "
        + PARTITIONS
        + " partitions and replicaAcks 1: an acknowledged write is on a replica too, so lost must"
        + " be 0";
  }

  @Override
  public QueueSettings queueSettings() {
    return QueueSettings.builder().partitions(PARTITIONS).replicaAcks(1).build();
  }

  @Override
  public List<String> faultKinds() {
    return List.of("master-kill", "replica-kill", "master-stall", "slot-migration");
  }

  @Override
  public String inject(String kind, Random random) throws InterruptedException {
    switch (kind) {
      case "master-kill" -> {
        int slot = rangeStart(random.nextInt(RedisCluster.MASTERS));
        RedisServer victim = cluster.masterOf(slot);
        cluster.killMaster(victim);
        RedisServer promoted = cluster.awaitFailover(victim, FAILOVER_TIMEOUT);
        RedisServer replacement = cluster.addReplica(promoted);
        return "master:" + victim.port() + "->" + promoted.port() + "+" + replacement.port();
      }
      case "replica-kill" -> {
        long pauseMs = 500 + random.nextInt(1501);
        List<RedisServer> replicas = running("slave");
        RedisServer victim = replicas.get(random.nextInt(replicas.size()));
        RedisServer master = masterOfReplica(victim);
        victim.kill();
        SoakTopology.sleep(pauseMs);
        RedisServer replacement = cluster.addReplica(master);
        return "replica:" + victim.port() + "+" + replacement.port();
      }
      case "master-stall" -> {
        long pauseMs = 300 + random.nextInt(1201);
        RedisServer victim = cluster.masterOf(rangeStart(random.nextInt(RedisCluster.MASTERS)));
        victim.pause();
        SoakTopology.hold(pauseMs, victim::resume);
        return "master:" + victim.port();
      }
      case "slot-migration" -> {
        int partition = random.nextInt(PARTITIONS);
        int pick = random.nextInt(RedisCluster.MASTERS - 1);
        int slot = Keyspace.slot(Keyspace.partitionTag(SoakConsumer.QUEUE, partition, PARTITIONS));
        RedisServer source = cluster.masterOf(slot);
        List<RedisServer> targets = running("master").stream().filter(n -> n != source).toList();
        RedisServer target = targets.get(pick % targets.size());
        SlotMigration migration = cluster.migrateSlot(slot, target);
        while (migration.moveKeys(5) > 0) {
          SoakTopology.sleep(20); // half moved for a while: clients meet ASK
        }
        migration.finish();
        return "slot:" + slot + ":" + source.port() + "->" + target.port();
      }
      default -> throw new IllegalArgumentException(kind);
    }
  }

  /** The first slot of master {@code i}'s range when the cluster formed (ranges never move). */
  private static int rangeStart(int i) {
    return RedisCluster.SLOTS * i / RedisCluster.MASTERS;
  }

  /** The running nodes whose ROLE starts with {@code role} (master or slave). */
  private List<RedisServer> running(String role) {
    return cluster.allNodes().stream()
        .filter(n -> n.isRunning() && n.command("ROLE").startsWith(role))
        .toList();
  }

  /** The master a replica follows (ROLE: slave, host, port, ...). */
  private RedisServer masterOfReplica(RedisServer replica) {
    int port = Integer.parseInt(replica.command("ROLE").split("\n")[2].strip());
    return cluster.allNodes().stream().filter(n -> n.port() == port).findFirst().orElseThrow();
  }

  @Override
  public void ensureRunning() {
    Set<RedisServer> followed = new HashSet<>();
    for (RedisServer replica : running("slave")) {
      followed.add(masterOfReplica(replica));
    }
    for (RedisServer master : running("master")) {
      if (!followed.contains(master)) {
        cluster.addReplica(master);
      }
    }
  }

  @Override
  public void close() {
    cluster.close();
  }
}
