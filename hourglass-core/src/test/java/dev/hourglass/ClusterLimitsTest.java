package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.internal.store.Keys;
import dev.hourglass.testing.topology.RedisCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Flow-control limits of a queue of three partitions on a real three-master Redis Cluster: each
 * partition (on its own master, where one script cannot see the others) enforces its share of each
 * limit, the shares summing to the limit, at least one each (docs/ARCHITECTURE.md, "Flow control").
 */
class ClusterLimitsTest {
  private static final int PARTITIONS = 3;
  private static final Duration VISIBILITY = Duration.ofMinutes(5);

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

  private Queue<byte[]> queue(String name, QueueLimits limits, int jobsPerPartition) {
    Queue<byte[]> q =
        client()
            .configureQueue(
                name, QueueSettings.builder().partitions(PARTITIONS).limits(limits).build());
    List<JobSpec> jobs = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      int n = 0;
      for (int i = 0; n < jobsPerPartition; i++) {
        String id = name + "-" + p + "-" + i;
        if (Keys.partitionOf(id, PARTITIONS) == p) {
          jobs.add(JobSpec.builder().id(id).payload("x").build());
          n++;
        }
      }
    }
    q.enqueueAll(jobs);
    return q;
  }

  /** Claims until a claim gets nothing: every job the limits let through now. */
  private static List<Delivery<byte[]>> claimAll(Queue<byte[]> q) {
    List<Delivery<byte[]>> all = new ArrayList<>();
    for (List<Delivery<byte[]>> got = q.claim(100, VISIBILITY);
        !got.isEmpty();
        got = q.claim(100, VISIBILITY)) {
      all.addAll(got);
    }
    return all;
  }

  @Test
  void theConcurrencyIsSharedByThePartitionsAndSumsToTheLimit() {
    Queue<byte[]> q = queue("conc", QueueLimits.concurrency(4), 5);

    List<Delivery<byte[]>> leased = claimAll(q);

    assertThat(leased).hasSize(4); // shares 2, 1, 1
    QueueStats stats = q.stats();
    assertThat(stats.inflight()).isEqualTo(4);
    assertThat(stats.heldBack()).isEqualTo(11);
    q.ack(leased.get(0));
    assertThat(claimAll(q)).hasSize(1);
  }

  @Test
  void aLimitBelowThePartitionsIsOnePerPartition() {
    Queue<byte[]> q = queue("small", QueueLimits.concurrency(2), 3);

    assertThat(claimAll(q)).hasSize(PARTITIONS);
  }

  @Test
  void theRateIsSharedByThePartitions() {
    Queue<byte[]> q = queue("rate", QueueLimits.rate(5, Duration.ofHours(1)), 4);

    List<Delivery<byte[]>> leased = claimAll(q);

    assertThat(leased).hasSize(5); // shares 2, 2, 1
    leased.forEach(q::ack);
    assertThat(claimAll(q)).isEmpty();
    assertThat(q.stats().heldBack()).isEqualTo(7);
  }

  @Test
  void workersOnEveryPartitionStartNoMoreThanTheRateInAnyWindow() {
    Queue<byte[]> q = queue("rate-workers", QueueLimits.rate(6, Duration.ofMillis(400)), 8);
    List<Long> starts = new CopyOnWriteArrayList<>();
    WorkerOptions options = WorkerOptions.builder().concurrency(8).visibility(VISIBILITY).build();
    for (Queue<byte[]> consumer : List.of(q, client().queue("rate-workers"))) {
      consumer.worker(
          job -> {
            Delivery<byte[]> d = job.delivery();
            starts.add(d.leaseUntil().toEpochMilli() - d.visibility().toMillis());
          },
          options);
    }

    await().atMost(RedisProbe.LIVENESS).until(() -> starts.size() == 24);
    assertThat(FlowControlTest.mostInAnyWindow(starts, 400)).isLessThanOrEqualTo(6);
  }
}
