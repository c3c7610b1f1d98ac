package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.embedded.RedisServer;
import dev.hourglass.internal.store.Keys;
import dev.hourglass.testing.topology.RedisCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One queue across a real three-master Redis Cluster: its partitions sit on every master, and one
 * worker serves every partition, fairly and without polling.
 */
class ClusterSpreadTest {
  /** Commands the test itself sends to read the nodes, not counted as the client's. */
  private static final Set<String> PROBES = Set.of("info", "time", "cluster", "command", "client");

  private static RedisCluster cluster;
  private final List<Hourglass> clients = new ArrayList<>();

  @BeforeAll
  static void startCluster() {
    cluster = RedisCluster.create();
    cluster.start();
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  @BeforeEach
  void flush() {
    cluster.flushAll();
  }

  @AfterEach
  void closeClients() {
    clients.forEach(Hourglass::close);
    clients.clear();
  }

  private Hourglass client() {
    Hourglass h = Hourglass.builder().redisUri(cluster.clusterUri()).build();
    clients.add(h);
    return h;
  }

  private static QueueSettings partitions(int p) {
    return QueueSettings.builder().partitions(p).build();
  }

  /** Ids of the jobs on partition {@code partition} of {@code partitions}, {@code n} of them. */
  private static List<String> idsOn(String prefix, int partition, int partitions, int n) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; ids.size() < n; i++) {
      String id = prefix + "-" + i;
      if (Keys.partitionOf(id, partitions) == partition) {
        ids.add(id);
      }
    }
    return ids;
  }

  private static List<JobSpec> jobs(List<String> ids, Duration delay) {
    return ids.stream()
        .map(id -> JobSpec.builder().id(id).payload(id).delay(delay).build())
        .toList();
  }

  /** The partition tags of {@code queue} among the keys each master holds, in node order. */
  private static List<Set<String>> tagsPerMaster(String queue) {
    List<Set<String>> tags = new ArrayList<>();
    for (RedisServer node : cluster.nodes()) {
      Set<String> onNode = new TreeSet<>();
      for (String key : node.command("KEYS", "hg:{" + queue + ".*").split("\\s+")) {
        if (!key.isBlank()) {
          onNode.add(key.substring(key.indexOf('{') + 1, key.indexOf('}')));
        }
      }
      tags.add(onNode);
    }
    return tags;
  }

  /**
   * "orders" is a name whose plain tags ({orders.0} to {orders.2}: slots 11829, 15892 and 3703)
   * would leave the middle master without a partition.
   */
  @Test
  void threePartitionsSitOnThreeMastersAndSixOnTwoEach() {
    Hourglass h = client();
    for (int p : new int[] {3, 6}) {
      String name = p == 3 ? "orders" : "orders6";
      Queue<byte[]> q = h.configureQueue(name, partitions(p));
      for (int i = 0; i < p; i++) {
        q.enqueueAll(jobs(idsOn("j", i, p, 5), Duration.ofMinutes(5)));
      }
      List<Set<String>> tags = tagsPerMaster(name);
      assertThat(tags).as("partition tags of %s per master", name).allMatch(t -> t.size() == p / 3);
      for (int i = 0; i < p; i++) {
        String tag = Keys.partitionTag(name, i, p);
        String slot = cluster.nodes().get(0).command("CLUSTER", "KEYSLOT", "{" + tag + "}").strip();
        assertThat(Integer.parseInt(slot)).isEqualTo(Keys.slot(tag));
        assertThat(tags.get(i * 3 / p)).as("master of partition %d of %d", i, p).contains(tag);
      }
    }
  }

  /**
   * One worker (library defaults) holds a backlog on partition 0; jobs enqueued later on partitions
   * 1 and 2 are delivered while that backlog is still being worked, and once everything is done,
   * the idle worker sends the masters only a few commands a second.
   */
  @Test
  void aWorkerServesEveryPartitionWithoutStarvingAnyAndWithoutPollingWhenIdle() {
    Hourglass h = client();
    Queue<byte[]> q = h.configureQueue("uneven", partitions(3));
    int backlog = 3000;
    q.enqueueAll(jobs(idsOn("big", 0, 3, backlog), Duration.ZERO));
    AtomicIntegerArray delivered = new AtomicIntegerArray(3);
    Map<String, Integer> backlogDoneWhenDelivered = new ConcurrentHashMap<>();
    h.worker(
        "uneven",
        job -> {
          int p = Keys.partitionOf(job.id(), 3);
          if (p == 0) {
            LockSupport.parkNanos(1_000_000); // a handler's work: 1 ms
          } else {
            backlogDoneWhenDelivered.put(job.id(), delivered.get(0));
          }
          delivered.incrementAndGet(p);
        });
    await().atMost(RedisProbe.LIVENESS).until(() -> delivered.get(0) >= 50);
    List<String> small = new ArrayList<>(idsOn("small", 1, 3, 10));
    small.addAll(idsOn("small", 2, 3, 10));
    q.enqueueAll(jobs(small, Duration.ZERO));

    await().atMost(RedisProbe.LIVENESS).until(() -> backlogDoneWhenDelivered.size() == 20);
    assertThat(backlogDoneWhenDelivered.values())
        .as("partition-0 jobs done when each job of partitions 1 and 2 ran")
        .allMatch(done -> done < backlog);
    await()
        .atMost(RedisProbe.LIVENESS)
        .until(() -> q.stats().counters().acked() == backlog + 20 && q.stats().total() == 0);

    // Idle: the claim loops block on their wake lists, the promoters sweep every second or less.
    Map<String, Long> before = clientCommands();
    Instant start = RedisProbe.serverNow(cluster.nodes().get(0));
    int seconds = 4;
    RedisProbe.awaitClockPast(cluster.nodes().get(0), start.plusSeconds(seconds));
    Map<String, Long> sent = new TreeMap<>(clientCommands());
    sent.replaceAll((command, calls) -> calls - before.getOrDefault(command, 0L));
    sent.values().removeIf(calls -> calls == 0);
    assertThat(sent.values().stream().mapToLong(Long::longValue).sum())
        .as("commands the idle worker sent to all masters in %d s: %s", seconds, sent)
        .isLessThanOrEqualTo(25L * seconds);
  }

  /**
   * Delayed jobs, nine in ten on one partition, are all delivered exactly once, and none before it
   * was due.
   */
  @Test
  void unevenPartitionsOfDelayedJobsAreAllDeliveredOnTime() {
    Hourglass h = client();
    Queue<byte[]> q = h.configureQueue("late", partitions(3));
    Map<String, Long> dueAt = new ConcurrentHashMap<>();
    Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    Map<String, Long> ranAt = new ConcurrentHashMap<>();
    h.worker(
        "late",
        job -> {
          ranAt.putIfAbsent(job.id(), System.currentTimeMillis());
          runs.computeIfAbsent(job.id(), k -> new AtomicInteger()).incrementAndGet();
        });
    int[] perPartition = {540, 30, 30};
    for (int p = 0; p < 3; p++) {
      List<String> ids = idsOn("late" + p, p, 3, perPartition[p]);
      for (int i = 0; i < ids.size(); i++) {
        Duration delay = Duration.ofMillis(100 + (i * 37L) % 700);
        dueAt.put(ids.get(i), System.currentTimeMillis() + delay.toMillis());
        q.enqueue(JobSpec.builder().id(ids.get(i)).payload("x").delay(delay).build());
      }
    }
    int n = perPartition[0] + perPartition[1] + perPartition[2];
    await()
        .atMost(RedisProbe.LIVENESS)
        .until(() -> q.stats().counters().acked() == n && q.stats().total() == 0);
    assertThat(runs).hasSize(n);
    assertThat(runs.values()).allMatch(c -> c.get() == 1);
    // Due time as this JVM computed it just before the enqueue: a job cannot run before it.
    assertThat(dueAt)
        .allSatisfy((id, due) -> assertThat(ranAt.get(id)).isGreaterThanOrEqualTo(due - 50));
  }

  /** Per command, the calls clients sent so far to all masters, without the test's own probes. */
  private static Map<String, Long> clientCommands() {
    Map<String, Long> calls = new TreeMap<>();
    for (RedisServer node : cluster.nodes()) {
      RedisProbe.commandCalls(node)
          .forEach(
              (command, n) -> {
                if (!PROBES.contains(command)) {
                  calls.merge(command, n, Long::sum);
                }
              });
    }
    return calls;
  }
}
