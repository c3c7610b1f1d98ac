package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Job priorities (API 1.2): a claim takes due jobs by the highest priority, then the earliest due
 * time, then the id; a priority never makes a job run early; a job keeps it through every way back
 * to waiting (nack, lapsed lease, release, dead requeue, reschedule, a slot list); states, listings
 * and counts include priority jobs; a queue whose jobs are all of priority 0 pays no command for
 * priorities. Clients here have the background promoter off unless a test says otherwise.
 */
class PriorityTest extends HourglassTestBase {
  private static final Duration LONG = Duration.ofHours(1);

  private Queue<byte[]> queue(Hourglass h, String name) {
    return h.configureQueue(
        name, QueueSettings.builder().slotWidth(Duration.ofMillis(200)).build());
  }

  private static JobSpec at(String id, int priority, Instant runAt) {
    return spec(id).priority(priority).runAt(runAt).build();
  }

  /** Claims one job at a time until none is ready: their ids in claim order. */
  private static List<String> drain(Queue<byte[]> q) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      List<Delivery<byte[]>> got = q.claim(1, LONG);
      if (got.isEmpty()) {
        return ids;
      }
      ids.add(got.get(0).id());
    }
    throw new AssertionError("claims never end");
  }

  @Test
  void claimsTakeTheHighestPriorityThenTheEarliestDueThenTheId() {
    Hourglass h = manual();
    Queue<byte[]> q = queue(h, "order");
    Instant now = redisNow();
    q.enqueue(at("old-zero", 0, now.minusSeconds(30)));
    q.enqueue(at("five-late", 5, now.minusSeconds(1)));
    q.enqueue(at("five-b", 5, now.minusSeconds(2)));
    q.enqueue(at("five-a", 5, now.minusSeconds(2)));
    q.enqueue(at("nine", 9, now.minusMillis(500)));
    q.enqueue(at("one", 1, now.minusSeconds(20)));
    q.enqueue(spec("plain").runAt(now.minusSeconds(40)).build()); // the queue's default: 0
    assertThat(drain(q))
        .containsExactly("nine", "five-a", "five-b", "five-late", "one", "plain", "old-zero");
  }

  @Test
  void oneClaimOfSeveralJobsDeliversThemInClaimOrder() {
    Hourglass h = manual();
    Queue<byte[]> q = queue(h, "batch");
    Instant now = redisNow();
    for (int i = 0; i < 20; i++) {
      q.enqueue(at("j" + i, i % 10, now.minusSeconds(i)));
    }
    List<Delivery<byte[]>> got = q.claim(8, LONG);
    assertThat(got).extracting(Delivery::priority).containsExactly(9, 9, 8, 8, 7, 7, 6, 6);
    // Within a priority, the earlier due first: j19 (due 19 s ago) before j9.
    assertThat(got).extracting(Delivery::id).startsWith("j19", "j9", "j18", "j8");
  }

  @Test
  void aQueueOfSeveralPartitionsOrdersEachPartitionsJobsByPriority() {
    Hourglass h = manual();
    Queue<byte[]> q = h.configureQueue("spread", QueueSettings.builder().partitions(3).build());
    Instant now = redisNow();
    Map<Integer, List<String>> expected = new java.util.TreeMap<>();
    List<JobSpec> specs = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      specs.add(at("j" + i, i % 3 == 0 ? 0 : i % 10, now.minusSeconds(100 - i)));
    }
    q.enqueueAll(specs);
    // Each partition's claim order: priority, then due (here the index), then id.
    specs.stream()
        .sorted(
            java.util.Comparator.comparingInt((JobSpec s) -> -s.priority().orElseThrow())
                .thenComparing(s -> s.runAt().orElseThrow()))
        .forEach(
            s ->
                expected
                    .computeIfAbsent(
                        dev.hourglass.internal.store.Keys.partitionOf(s.id().orElseThrow(), 3),
                        k -> new ArrayList<>())
                    .add(s.id().orElseThrow()));
    Map<Integer, List<String>> got = new java.util.TreeMap<>();
    for (String id : drain(q)) {
      got.computeIfAbsent(
              dev.hourglass.internal.store.Keys.partitionOf(id, 3), k -> new ArrayList<>())
          .add(id);
    }
    assertThat(got).isEqualTo(expected);
    assertThat(q.stats().ready()).isZero();
  }

  @Test
  void theQueueDefaultPriorityAppliesToJobsThatSetNone() {
    Hourglass h = manual();
    Queue<byte[]> q = h.configureQueue("defaulted", QueueSettings.builder().priority(6).build());
    assertThat(q.settings().priority()).isEqualTo(6);
    Instant now = redisNow();
    q.enqueue(spec("own").priority(7).runAt(now.minusSeconds(1)).build());
    q.enqueue(spec("default").runAt(now.minusSeconds(5)).build());
    q.enqueue(spec("zero").priority(0).runAt(now.minusSeconds(9)).build());
    assertThat(q.get("default").orElseThrow().priority()).isEqualTo(6);
    assertThat(drain(q)).containsExactly("own", "default", "zero");
  }

  @Test
  void aPriorityOutOfRangeIsRefusedByName() {
    assertThatThrownBy(() -> spec("x").priority(10).build())
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("priority");
    assertThatThrownBy(() -> spec("x").priority(-1).build())
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("priority");
    assertThatThrownBy(() -> QueueSettings.builder().priority(10).build())
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("priority");
    assertThat(QueueSettings.defaults().priority()).isZero();
  }

  @Test
  void aPriorityNeverMakesAJobRunBeforeItsDueTime() {
    Hourglass h = manual();
    Queue<byte[]> q = queue(h, "early");
    Instant now = redisNow();
    EnqueueResult urgent =
        q.enqueue(spec("urgent").priority(9).delay(Duration.ofMillis(1500)).build());
    q.enqueue(at("low", 0, now.minusSeconds(1)));
    assertThat(q.get("urgent").orElseThrow().state()).isEqualTo(JobState.DELAYED);
    assertThat(drain(q)).containsExactly("low");
    List<Delivery<byte[]>> got = new ArrayList<>();
    await()
        .atMost(RedisProbe.LIVENESS)
        .until(
            () -> {
              got.addAll(q.claim(1, LONG));
              return !got.isEmpty();
            });
    assertThat(got.get(0).id()).isEqualTo("urgent");
    assertThat(got.get(0).priority()).isEqualTo(9);
    assertThat(got.get(0).leaseUntil().minus(LONG)).isAfterOrEqualTo(urgent.runAt());
  }

  @Test
  void aPriorityJobInASlotListLoadsAheadOfEarlierPriorityZeroJobs() {
    Hourglass h = manual();
    Queue<byte[]> q = queue(h, "slots"); // slot width 200 ms: due in 1.5 s waits in a slot list
    q.enqueue(spec("far").priority(4).delay(Duration.ofMillis(1500)).build());
    q.enqueue(spec("near").delay(Duration.ofMillis(1400)).build());
    awaitRedisClockPast(q.get("far").orElseThrow().runAt());
    assertThat(q.get("far").orElseThrow().state()).isEqualTo(JobState.READY);
    assertThat(drain(q)).containsExactly("far", "near");
  }

  @Test
  void aJobKeepsItsPriorityThroughNackLapseReleaseDeadRequeueAndReschedule() {
    Hourglass h = manual();
    Queue<byte[]> q = queue(h, "keeps");
    Instant now = redisNow();
    q.enqueue(spec("p").priority(7).maxAttempts(10).runAt(now.minusSeconds(1)).build());
    q.enqueue(at("zero", 0, now.minusSeconds(60)));

    // nack: retried at once, still ahead of the older priority-0 job
    Delivery<byte[]> d = q.claim(1, LONG).get(0);
    assertThat(d.id()).isEqualTo("p");
    q.nack(d, Nack.retryAfter(Duration.ZERO, "again"));
    d = q.claim(1, LONG).get(0);
    assertThat(d.id()).isEqualTo("p");
    assertThat(d.priority()).isEqualTo(7);

    // release
    q.release(d.id(), d.receipt());
    d = q.claim(1, Duration.ofMillis(100)).get(0);
    assertThat(d.id()).isEqualTo("p");

    // a lapsed lease (the claim's catch-up brings it back)
    Instant lapse = d.leaseUntil();
    awaitRedisClockPast(lapse);
    d = q.claim(1, LONG).get(0);
    assertThat(d.id()).isEqualTo("p");
    assertThat(d.attempt()).isEqualTo(3);

    // dead, then requeued
    q.nack(d, Nack.kill("dead"));
    assertThat(q.get("p").orElseThrow().state()).isEqualTo(JobState.DEAD);
    q.dead().requeue("p");
    assertThat(q.get("p").orElseThrow().state()).isEqualTo(JobState.READY);
    assertThat(q.get("p").orElseThrow().priority()).isEqualTo(7);

    // rescheduled later: not claimable until then; the priority-0 job goes first
    JobInfo<byte[]> later = q.reschedule("p", Duration.ofMillis(300));
    assertThat(later.state()).isEqualTo(JobState.DELAYED);
    assertThat(later.priority()).isEqualTo(7);
    assertThat(drain(q)).containsExactly("zero");
    awaitRedisClockPast(later.runAt());
    assertThat(drain(q)).containsExactly("p");
  }

  @Test
  void statesListingsAndCountsIncludePriorityJobs() {
    Hourglass h = manual();
    Queue<byte[]> q = queue(h, "counted");
    Instant now = redisNow();
    q.enqueue(at("r9", 9, now.minusSeconds(3)));
    q.enqueue(at("r0", 0, now.minusSeconds(2)));
    q.enqueue(at("r5", 5, now.minusSeconds(1)));
    q.enqueue(at("r5b", 5, now.minusSeconds(4)));
    q.enqueue(spec("d3").priority(3).delay(Duration.ofMinutes(2)).build());
    q.enqueue(spec("d0").delay(Duration.ofMinutes(1)).build());
    q.enqueue(spec("d8").priority(8).delay(Duration.ofMinutes(90)).build()); // a slot list

    assertThat(q.get("r9").orElseThrow().state()).isEqualTo(JobState.READY);
    assertThat(q.get("d3").orElseThrow().state()).isEqualTo(JobState.DELAYED);
    assertThat(q.get("d3").orElseThrow().priority()).isEqualTo(3);
    // Listed by due time, whatever the priority.
    assertThat(q.jobs(JobState.READY, 100, null).jobs())
        .extracting(JobInfo::id)
        .containsExactly("r5b", "r9", "r0", "r5");
    assertThat(q.jobs(JobState.DELAYED, 100, null).jobs())
        .extracting(JobInfo::id)
        .containsExactly("d0", "d3", "d8");
    // Pages follow one order across near and the priorities.
    JobPage<byte[]> first = q.jobs(JobState.READY, 3, null);
    assertThat(first.jobs()).extracting(JobInfo::id).containsExactly("r5b", "r9", "r0");
    assertThat(q.jobs(JobState.READY, 3, first.next().orElseThrow()).jobs())
        .extracting(JobInfo::id)
        .containsExactly("r5");
    QueueStats stats = q.stats();
    assertThat(stats.ready()).isEqualTo(4);
    assertThat(stats.delayed()).isEqualTo(3);
    assertThat(q.dueWithin(List.of(Duration.ofMinutes(3), Duration.ofHours(2))))
        .containsExactly(2L, 3L);

    assertThat(q.cancel("r9")).isTrue();
    assertThat(q.cancel("d3")).isTrue();
    assertThat(q.stats().ready()).isEqualTo(3);
    assertThat(q.stats().delayed()).isEqualTo(2);
    assertThat(drain(q)).containsExactly("r5b", "r5", "r0");
  }

  @Test
  void aPriorityJobFallingDueWakesABlockedConsumer() {
    Hourglass h = live();
    Queue<byte[]> q = queue(h, "woken");
    List<String> got = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (Worker w = q.worker(job -> got.add(job.id() + ":" + job.priority()))) {
      EnqueueResult r = q.enqueue(spec("soon").priority(6).delay(Duration.ofMillis(700)).build());
      await().atMost(RedisProbe.LIVENESS).until(() -> !got.isEmpty());
      assertThat(got).containsExactly("soon:6");
      assertThat(redisNow()).isAfterOrEqualTo(r.runAt());
    }
  }

  @Test
  void aQueueOfPriorityZeroJobsClaimsWithOneRangeReadAsBefore() {
    Hourglass h = manual();
    Queue<byte[]> q = queue(h, "plain");
    Instant now = redisNow();
    for (int i = 0; i < 10; i++) {
      q.enqueue(at("z" + i, 0, now.minusSeconds(1)));
    }
    Map<String, Long> before = RedisProbe.commandCalls(redis.server());
    for (int i = 0; i < 5; i++) {
      assertThat(q.claim(1, LONG)).hasSize(1);
    }
    Map<String, Long> after = RedisProbe.commandCalls(redis.server());
    assertThat(delta(before, after, "zrangebyscore")).isEqualTo(5);

    // Once a priority job came and went, the first claim finds its band empty and unlists it.
    q.enqueue(at("p", 2, now.minusSeconds(1)));
    assertThat(q.claim(1, LONG)).extracting(Delivery::id).containsExactly("p");
    assertThat(q.claim(1, LONG)).hasSize(1); // reads the empty band, unlists it
    before = RedisProbe.commandCalls(redis.server());
    for (int i = 0; i < 3; i++) {
      assertThat(q.claim(1, LONG)).hasSize(1);
    }
    after = RedisProbe.commandCalls(redis.server());
    assertThat(delta(before, after, "zrangebyscore")).isEqualTo(3);
  }

  private static long delta(Map<String, Long> before, Map<String, Long> after, String command) {
    return after.getOrDefault(command, 0L) - before.getOrDefault(command, 0L);
  }
}
