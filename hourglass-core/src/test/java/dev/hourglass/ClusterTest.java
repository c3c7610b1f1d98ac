package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.hourglass.embedded.RedisServer;
import dev.hourglass.internal.store.Keys;
import dev.hourglass.testing.topology.RedisCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A slice of the queue contract on a real three-master Redis Cluster. */
class ClusterTest {
  private static RedisCluster cluster;

  private final List<Hourglass> clients = new ArrayList<>();

  /** Per node, the first id of a connection opened by the running test. */
  private final Map<RedisServer, Long> firstClientIds = new HashMap<>();

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
    for (RedisServer node : cluster.nodes()) {
      firstClientIds.put(node, RedisProbe.nextClientId(node));
    }
  }

  /** Connections this test opened, on any node, that sit blocked in BLPOP right now. */
  private int blockedInBlpop() {
    int blocked = 0;
    for (RedisServer node : cluster.nodes()) {
      blocked += RedisProbe.blockedInBlpop(node, firstClientIds.get(node)).size();
    }
    return blocked;
  }

  @AfterEach
  void closeClients() {
    clients.forEach(Hourglass::close);
    clients.clear();
  }

  private Hourglass client(UnaryOperator<HourglassBuilder> config) {
    Hourglass h = config.apply(Hourglass.builder().redisUri(cluster.clusterUri())).build();
    clients.add(h);
    return h;
  }

  private Hourglass manual() {
    return client(b -> b.backgroundPromoter(false));
  }

  private static QueueSettings partitions(int p) {
    return QueueSettings.builder().partitions(p).build();
  }

  private static JobSpec job(String id, Duration delay) {
    return JobSpec.builder().id(id).payload("payload-" + id).delay(delay).build();
  }

  @Test
  void enqueueGetRescheduleCancel() {
    Hourglass h = manual();
    Queue<byte[]> q = h.configureQueue("orders", partitions(3));

    q.enqueue(job("close-1", Duration.ofHours(1)));
    assertThat(q.get("close-1").orElseThrow().state()).isEqualTo(JobState.DELAYED);
    assertThat(h.queueExists("orders")).isTrue();
    assertThat(h.queueNames()).containsExactly("orders");

    // Due now: ready by the server clock, with no promoter having run.
    assertThat(q.reschedule("close-1", Duration.ZERO).state()).isEqualTo(JobState.READY);
    assertThat(q.get("close-1").orElseThrow().state()).isEqualTo(JobState.READY);

    assertThat(q.cancel("close-1")).isTrue();
    assertThat(q.get("close-1")).isEmpty();
    assertThat(q.cancel("close-1")).isFalse();
  }

  /**
   * A replica-acknowledged write's WAIT goes to the master owning the partition's slot, on the very
   * node connection that carried the script: this cluster has no replicas, so every WAIT answers 0
   * and every enqueue fails typed; each node ran one WAIT per enqueue it holds, and no connection
   * of the client was left with a script as its last command (a WAIT on another connection of the
   * node, as a node-id connection would be, would leave the script's connection so).
   */
  @Test
  void aReplicaAcknowledgedWriteWaitsOnTheSlotOwnersConnectionThatCarriedIt() {
    Hourglass h = client(b -> b.backgroundPromoter(false).replicaAcks(1, Duration.ofMillis(100)));
    Queue<byte[]> q = h.configureQueue("acked", partitions(6));
    Map<RedisServer, Long> waitsBefore = new HashMap<>();
    for (RedisServer node : cluster.nodes()) {
      waitsBefore.put(node, RedisProbe.commandCalls(node).getOrDefault("wait", 0L));
    }
    for (int i = 0; i < 12; i++) {
      String id = "acked-" + i;
      assertThatThrownBy(() -> q.enqueue(job(id, Duration.ZERO)))
          .isInstanceOfSatisfying(ReplicaAckException.class, e -> assertThat(e.acked()).isZero());
    }
    int held = 0;
    for (RedisServer node : cluster.nodes()) {
      long jobs = 0;
      for (int p = 0; p < 6; p++) {
        String slot =
            node.command("CLUSTER", "KEYSLOT", "{" + Keys.partitionTag("acked", p, 6) + "}")
                .strip();
        if (!"0".equals(node.command("CLUSTER", "COUNTKEYSINSLOT", slot).strip())) {
          for (int i = 0; i < 12; i++) {
            if (dev.hourglass.internal.store.Keys.partitionOf("acked-" + i, 6) == p) {
              jobs++;
            }
          }
        }
      }
      held += jobs;
      long waits = RedisProbe.commandCalls(node).getOrDefault("wait", 0L) - waitsBefore.get(node);
      assertThat(waits).as("WAITs on %s, which holds %d of the jobs", node, jobs).isEqualTo(jobs);
    }
    assertThat(held).isEqualTo(12);
    long scriptLast = 0;
    for (RedisServer node : cluster.nodes()) {
      scriptLast +=
          RedisProbe.clients(node, firstClientIds.get(node)).stream()
              .filter(c -> "evalsha".equals(c.cmd()) || "eval".equals(c.cmd()))
              .count();
    }
    assertThat(scriptLast)
        .as("connections whose last command is a script: the settings read")
        .isLessThanOrEqualTo(1);
  }

  @Test
  void partitionsSpreadOverEveryMasterAndStatsSumThem() {
    Hourglass h = manual();
    Queue<byte[]> q = h.configureQueue("spread", partitions(6));
    for (int i = 0; i < 60; i++) {
      q.enqueue(job("job-" + i, Duration.ZERO));
    }

    for (RedisServer node : cluster.nodes()) {
      assertThat(node.command("KEYS", "*{spread.*"))
          .as("keys of queue 'spread' on %s", node)
          .isNotBlank();
    }
    Set<String> slots = new HashSet<>();
    for (int p = 0; p < 6; p++) {
      slots.add(
          cluster
              .nodes()
              .get(0)
              .command("CLUSTER", "KEYSLOT", "{" + Keys.partitionTag("spread", p, 6) + "}"));
    }
    assertThat(slots).hasSize(6);
    QueueStats stats = q.stats();
    assertThat(stats.partitions()).isEqualTo(6);
    assertThat(stats.ready()).isEqualTo(60);
    assertThat(stats.counters().enqueued()).isEqualTo(60);

    List<Delivery<byte[]>> claimed = new ArrayList<>();
    while (claimed.size() < 60) {
      List<Delivery<byte[]>> batch = q.claim(25, Duration.ofSeconds(30));
      assertThat(batch).isNotEmpty();
      claimed.addAll(batch);
    }
    claimed.forEach(d -> q.ack(d.id(), d.receipt()));
    assertThat(q.stats().counters().acked()).isEqualTo(60);
    assertThat(q.stats().total()).isZero();
  }

  @Test
  void delayedJobsArePromotedAndDeliveredToAWorkerExactlyOnce() {
    Hourglass h = client(b -> b);
    h.configureQueue("timers", partitions(6));
    Queue<byte[]> q = h.queue("timers");
    int n = 300;
    for (int i = 0; i < n; i++) {
      q.enqueue(job("t-" + i, Duration.ofMillis(ThreadLocalRandom.current().nextInt(1500))));
    }
    Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
    h.worker(
        "timers",
        job -> deliveries.computeIfAbsent(job.id(), k -> new AtomicInteger()).incrementAndGet());

    // Everything acked and nothing left: no further delivery can come.
    await()
        .atMost(RedisProbe.LIVENESS)
        .until(() -> q.stats().counters().acked() == n && q.stats().total() == 0);
    assertThat(q.stats().counters().delivered()).as("one delivery per job").isEqualTo(n);
    assertThat(deliveries).hasSize(n);
    assertThat(deliveries.values()).allMatch(count -> count.get() == 1);
  }

  @Test
  void longPollClaimWakesOnEnqueueAndOnDueTime() throws Exception {
    Hourglass h = client(b -> b);
    Queue<byte[]> q = h.configureQueue("poll", partitions(3));

    // Each wait asks for far longer than the test waits for it: a job in time came by a wake-up.
    Duration longWait = Duration.ofMinutes(10);
    long liveness = RedisProbe.LIVENESS.toSeconds();
    CompletableFuture<List<Delivery<byte[]>>> waiting =
        q.claimAsync(10, Duration.ofSeconds(30), longWait);
    // The claim found the queue empty and waits: each partition's watcher blocks on its wake list.
    await().atMost(RedisProbe.LIVENESS).until(() -> blockedInBlpop() >= 3);
    assertThat(waiting).isNotDone();
    q.enqueue(job("now", Duration.ZERO));
    List<Delivery<byte[]>> got = waiting.get(liveness, TimeUnit.SECONDS);
    assertThat(got).extracting(Delivery::id).containsExactly("now");
    q.ack("now", got.get(0).receipt());

    q.enqueue(job("soon", Duration.ofMillis(700)));
    List<Delivery<byte[]>> later =
        q.claimAsync(10, Duration.ofSeconds(30), longWait).get(liveness, TimeUnit.SECONDS);
    assertThat(later).extracting(Delivery::id).containsExactly("soon");
  }

  @Test
  void deadLettersListRequeueAndPurgeAcrossPartitions() {
    Hourglass h = manual();
    Queue<byte[]> q = h.configureQueue("poison", partitions(4));
    for (int i = 0; i < 8; i++) {
      q.enqueue(JobSpec.builder().id("p-" + i).payload("x").maxAttempts(1).build());
    }
    killAll(q, 8);

    assertThat(q.dead().count()).isEqualTo(8);
    Set<String> listed = new HashSet<>();
    String cursor = null;
    do {
      JobPage<byte[]> page = q.dead().list(cursor, 3);
      page.jobs().forEach(j -> listed.add(j.id()));
      cursor = page.next().orElse(null);
    } while (cursor != null);
    assertThat(listed).hasSize(8);
    assertThat(q.stats().dead()).isEqualTo(8);

    assertThat(q.dead().requeueAll()).isEqualTo(8);
    assertThat(q.stats().ready()).isEqualTo(8);
    killAll(q, 8);
    assertThat(q.dead().purge()).isEqualTo(8);
    assertThat(q.stats().total()).isZero();
  }

  private static void killAll(Queue<byte[]> q, int expected) {
    int killed = 0;
    while (killed < expected) {
      List<Delivery<byte[]>> batch = q.claim(expected, Duration.ofSeconds(30));
      assertThat(batch).isNotEmpty();
      for (Delivery<byte[]> d : batch) {
        q.nack(d.id(), d.receipt(), Nack.kill("bad input"));
        killed++;
      }
    }
  }
}
