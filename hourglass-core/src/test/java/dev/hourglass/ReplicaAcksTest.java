package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.hourglass.embedded.RedisServer;
import dev.hourglass.internal.store.Keys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Replica-acknowledged writes on a real master and replica (Redis 6.2: {@code WAIT}). With the mode
 * on, each write is on the replica when the call returns; with the replica stopped a durable
 * enqueue fails with {@link ReplicaAckException} after its timeout while a plain one succeeds.
 */
class ReplicaAcksTest {
  private static final Duration LIVENESS = Duration.ofSeconds(30);
  private static RedisServer master;
  private static RedisServer replica;

  @BeforeAll
  static void startMasterAndReplica() {
    master = RedisServer.builder().build();
    master.start();
    replica = RedisServer.builder().args("--replicaof", "127.0.0.1", "" + master.port()).build();
    replica.start();
  }

  @AfterAll
  static void stop() {
    replica.close();
    master.close();
  }

  @BeforeEach
  void replicaInSync() {
    replica.start(); // a no-op unless a test stopped it
    master.flushAll();
    await()
        .atMost(LIVENESS)
        .until(() -> replica.command("INFO", "replication").contains("master_link_status:up"));
    await()
        .atMost(LIVENESS)
        .until(() -> master.command("INFO", "replication").contains("connected_slaves:1"));
  }

  /** SIGKILLs the replica and waits until the master has seen it go. */
  private static void killReplica() {
    replica.kill();
    await()
        .atMost(LIVENESS)
        .until(() -> master.command("INFO", "replication").contains("connected_slaves:0"));
  }

  private static Hourglass client(int replicas) {
    return Hourglass.builder()
        .redisUri(master.uri())
        .backgroundPromoter(false)
        .commandTimeout(Duration.ofSeconds(5))
        .replicaAcks(replicas, Duration.ofSeconds(1))
        .build();
  }

  /** Whether the replica holds the job (its record in its pool hash), read on the replica. */
  private static boolean onReplica(String queue, String id) {
    var p = new Keys("hg").partition(queue, 0, 1, QueueSettings.DEFAULT_POOLS);
    return "1".equals(replica.command("HEXISTS", p.pool(id), p.member(id)).strip());
  }

  @Test
  void everyDurableWriteIsOnTheReplicaWhenItsCallReturns() throws Exception {
    try (Hourglass h = client(1)) {
      Queue<String> q = h.queue("durable", String.class);
      for (int i = 0; i < 30; i++) {
        String id = "job-" + i;
        EnqueueResult r = q.enqueue(q.spec("x").id(id).build());
        assertThat(onReplica("durable", id)).as(() -> id + " on the replica: " + why(r)).isTrue();
      }
      List<JobSpec> batch = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        batch.add(q.spec("x").id("batch-" + i).build());
      }
      q.enqueueAll(batch);
      for (int i = 0; i < 20; i++) {
        assertThat(onReplica("durable", "batch-" + i)).isTrue();
      }
      assertThat(q.cancel("job-0")).isTrue();
      assertThat(onReplica("durable", "job-0")).as("cancel reached the replica").isFalse();
      List<Delivery<String>> claimed = q.claim(2, Duration.ofSeconds(30));
      assertThat(claimed).hasSize(2);
      q.ack(claimed.get(0));
      assertThat(onReplica("durable", claimed.get(0).id())).as("ack reached the replica").isFalse();
    }
  }

  @Test
  void concurrentDurableEnqueuesShareWaitsAndAllReachTheReplica() throws Exception {
    try (Hourglass h = client(1)) {
      Queue<String> q = h.queue("group", String.class);
      List<CompletableFuture<EnqueueResult>> calls = new ArrayList<>();
      for (int i = 0; i < 500; i++) {
        calls.add(q.enqueueAsync(q.spec("x").id("g-" + i).build()));
      }
      for (int i = 0; i < 500; i++) {
        calls.get(i).get(LIVENESS.toSeconds(), TimeUnit.SECONDS);
        assertThat(onReplica("group", "g-" + i)).isTrue();
      }
      long waits = waitCalls();
      assertThat(waits).as("WAITs for 500 enqueues (group commit)").isPositive().isLessThan(500);
    }
  }

  /** What a failure needs to tell: the result, and both servers' replication offsets. */
  private static String why(EnqueueResult r) {
    return r
        + "; master "
        + master.command("INFO", "replication").replaceAll("\\s+", " ")
        + "; replica "
        + replica.command("INFO", "replication").replaceAll("\\s+", " ");
  }

  private static long waitCalls() {
    for (String line : master.command("INFO", "commandstats").split("\r?\n")) {
      if (line.startsWith("cmdstat_wait:")) {
        String calls = line.substring(line.indexOf("calls=") + 6);
        return Long.parseLong(calls.substring(0, calls.indexOf(',')));
      }
    }
    return 0;
  }

  @Test
  void withTheReplicaDownADurableEnqueueFailsTypedWhileAPlainOneSucceeds() throws Exception {
    killReplica();
    try (Hourglass durable = client(1);
        Hourglass plain = client(0)) {
      Queue<String> d = durable.queue("down", String.class);
      assertThatThrownBy(() -> d.enqueue(d.spec("x").id("d1").build()))
          .isInstanceOfSatisfying(
              ReplicaAckException.class,
              e -> {
                assertThat(e.outcomeUnknown()).isTrue();
                assertThat(e.required()).isEqualTo(1);
                assertThat(e.acked()).isZero();
              });
      assertThat(d.get("d1")).as("the write took effect on the master").isPresent();
      Queue<String> p = plain.queue("down", String.class);
      assertThat(p.enqueue(p.spec("x").id("p1").build()).created()).isTrue();
    }
  }

  @Test
  void aQueueSettingOverridesTheClientDefault() throws Exception {
    killReplica();
    try (Hourglass h = client(0)) {
      h.configureQueue("per-queue", QueueSettings.builder().replicaAcks(1).build());
      Queue<String> q = h.queue("per-queue", String.class);
      assertThat(q.settings().replicaAcks()).hasValue(1);
      assertThatThrownBy(() -> q.enqueue(q.spec("x").id("a").build()))
          .isInstanceOf(ReplicaAckException.class);
      h.configureQueue("per-queue", q.settings().toBuilder().replicaAcks(null).build());
      assertThat(q.settings().replicaAcks()).isEmpty();
      assertThat(q.enqueue(q.spec("x").id("b").build()).created()).isTrue();
    }
    try (Hourglass h = client(1)) {
      h.configureQueue("opt-out", QueueSettings.builder().replicaAcks(0).build());
      Queue<String> q = h.queue("opt-out", String.class);
      assertThat(q.enqueue(q.spec("x").id("c").build()).created())
          .as("replicaAcks 0 on the queue turns the client's default off")
          .isTrue();
    }
  }

  @Test
  void theAckTimeoutMustBeShorterThanTheCommandTimeout() {
    assertThatThrownBy(
            () ->
                Hourglass.builder()
                    .redisUri(master.uri())
                    .commandTimeout(Duration.ofSeconds(1))
                    .replicaAcks(1, Duration.ofSeconds(1))
                    .build())
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("replicaAckTimeout");
  }
}
