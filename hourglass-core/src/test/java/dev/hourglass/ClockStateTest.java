package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hourglass.internal.store.Keys;
import dev.hourglass.internal.store.Partition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A job's state, the queue's counts and claims follow the Redis server clock wherever the job is
 * stored, with no promoter having run (every client here has the background promoter off, and
 * nothing calls {@link Queue#promote()}): an overdue job in a slot list is ready and the first
 * claim returns it; a job past its ttl leaves the counts; a lapsed lease comes back at the next
 * claim.
 */
class ClockStateTest extends HourglassTestBase {
  private static final Duration SLOT = Duration.ofMillis(200);

  private Queue queueWithShortSlots(Hourglass h, String name) {
    return h.configureQueue(name, QueueSettings.builder().slotWidth(SLOT).build());
  }

  /** Waits until the Redis server clock has passed {@code instant}: the clock is what is tested. */
  private static void awaitServerClockPast(Instant instant) {
    await()
        .pollInterval(Duration.ofMillis(10))
        .atMost(Duration.ofSeconds(30))
        .until(() -> serverNowMs() > instant.toEpochMilli());
  }

  private static long serverNowMs() {
    String[] t = redis.server().command("TIME").split("\n");
    return Long.parseLong(t[0].trim()) * 1000 + Long.parseLong(t[1].trim()) / 1000;
  }

  private static Partition partition(String queue) {
    return new Keys("hg").partition(queue, 0, 1, QueueSettings.DEFAULT_POOLS);
  }

  @Test
  void anOverdueJobInASlotListIsReadyCountedAndClaimedWithoutAnyPromoter() {
    Hourglass h = manual();
    Queue<byte[]> q = queueWithShortSlots(h, "overdue");
    EnqueueResult r = q.enqueue(spec("late").delay(Duration.ofSeconds(2)).build());
    Partition p = partition("overdue");
    assertThat(redis.server().command("ZSCORE", p.near(), p.member("late")))
        .as("the job waits in a slot list, not in near")
        .isNullOrEmpty();
    assertThat(redis.server().command("ZCARD", p.slots())).isEqualTo("1");
    assertThat(q.get("late").orElseThrow().state()).isEqualTo(JobState.DELAYED);

    awaitServerClockPast(r.runAt());

    assertThat(q.get("late").orElseThrow().state())
        .as("overdue in its slot list: ready by the clock")
        .isEqualTo(JobState.READY);
    QueueStats stats = q.stats();
    assertThat(stats.ready()).isEqualTo(1);
    assertThat(stats.delayed()).isZero();
    List<Delivery<byte[]>> got = q.claim(10, Duration.ofSeconds(30));
    assertThat(got).extracting(Delivery::id).containsExactly("late");
    assertThat(got.get(0).attempt()).isEqualTo(1);
  }

  @Test
  void theFirstClaimLoadsEveryDueSlotListInDueOrder() {
    Hourglass h = manual();
    Queue<byte[]> q = queueWithShortSlots(h, "many-slots");
    // 40 jobs over 4 s: about 20 slot lists, more than one script call declares at once.
    List<JobSpec> specs = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      specs.add(spec(String.format("j%02d", i)).delay(Duration.ofMillis(1000 + 100L * i)).build());
    }
    List<EnqueueResult> results = q.enqueueAll(specs);
    Instant last = results.stream().map(EnqueueResult::runAt).max(Instant::compareTo).orElseThrow();

    awaitServerClockPast(last);

    assertThat(q.stats().ready()).isEqualTo(40);
    List<Delivery<byte[]>> got = q.claim(100, Duration.ofSeconds(30));
    assertThat(got).hasSize(40);
    assertThat(got).extracting(d -> d.dueAt()).isSorted();
    assertThat(q.stats().total()).isEqualTo(40);
    assertThat(q.stats().inflight()).isEqualTo(40);
  }

  @Test
  void aJobPastItsTtlLeavesGetAndTheCountsWithoutAnyPromoter() {
    Hourglass h = manual();
    Queue<byte[]> q = h.queue("ttl");
    EnqueueResult r =
        q.enqueue(
            spec("short-lived").ttl(Duration.ofMillis(300)).delay(Duration.ofMillis(100)).build());
    q.enqueue(spec("stays").delay(Duration.ofHours(1)).build());
    assertThat(q.stats().total()).isEqualTo(2);

    awaitServerClockPast(r.runAt().plusMillis(300));

    assertThat(q.get("short-lived")).isEmpty();
    QueueStats stats = q.stats();
    assertThat(stats.total()).isEqualTo(1);
    assertThat(stats.ready()).isZero();
    assertThat(stats.counters().expired()).isEqualTo(1);
    assertThat(q.claim(10, Duration.ofSeconds(30))).isEmpty();
  }

  @Test
  void aLapsedLeaseComesBackAtTheNextClaimWithoutAnyPromoter() {
    Hourglass h = manual();
    Queue<byte[]> q = h.queue("lapsed");
    q.enqueue(job("j"));
    Delivery<byte[]> first = q.claim(1, Duration.ofMillis(200)).get(0);

    awaitServerClockPast(first.leaseUntil());

    List<Delivery<byte[]>> again = q.claim(1, Duration.ofSeconds(30));
    assertThat(again).extracting(Delivery::id).containsExactly("j");
    assertThat(again.get(0).attempt()).isEqualTo(2);
    assertThat(again.get(0).lastError()).hasValue("lease expired");
    assertThat(q.stats().counters().retried()).isEqualTo(1);
  }
}
