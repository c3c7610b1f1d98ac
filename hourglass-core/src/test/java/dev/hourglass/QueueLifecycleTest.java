package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.hourglass.internal.store.Keys;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Pause, resume and delete, checked in Redis itself. */
class QueueLifecycleTest extends HourglassTestBase {

  @Test
  void aPausedQueueTakesEnqueuesButLeasesNothingUntilResumed() {
    Hourglass h = manual();
    Queue<byte[]> q = h.configureQueue("p", QueueSettings.builder().partitions(3).build());
    q.enqueue(job("before"));
    q.pause();
    assertThat(q.stats().paused()).isTrue();
    q.enqueue(job("during"));
    assertThat(q.stats().ready()).isEqualTo(2);
    assertThat(q.claim(10, null)).isEmpty();
    CompletableFuture<List<Delivery<byte[]>>> waiting =
        q.claimAsync(10, null, Duration.ofSeconds(30));
    assertThat(waiting).isNotDone();

    q.resume();

    List<Delivery<byte[]>> got = waiting.join(); // woken by the resume, not by its wait running out
    assertThat(got).isNotEmpty();
    assertThat(got).allSatisfy(d -> assertThat(d.attempt()).isEqualTo(1));
    assertThat(q.stats().paused()).isFalse();
    List<String> ids = new java.util.ArrayList<>(got.stream().map(Delivery::id).toList());
    q.claim(10, null).forEach(d -> ids.add(d.id()));
    assertThat(ids).containsExactlyInAnyOrder("before", "during");
  }

  @Test
  void resumeWakesAWaitingClaimForAJobThatFellDueInASlotListWhilePaused() throws Exception {
    Hourglass h = manual();
    Queue<byte[]> q =
        h.configureQueue(
            "resume",
            QueueSettings.builder().partitions(1).slotWidth(Duration.ofMillis(500)).build());
    EnqueueResult r = q.enqueue(spec("s").delay(Duration.ofSeconds(2)).build());
    q.pause();
    awaitRedisClockPast(r.runAt());
    CompletableFuture<List<Delivery<byte[]>>> waiting =
        q.claimAsync(1, null, Duration.ofMinutes(5));
    await().atMost(Duration.ofSeconds(30)).until(() -> !blockedInBlpop().isEmpty());

    q.resume();

    // Woken by the resume: its own wait would last five minutes.
    assertThat(waiting.get(60, TimeUnit.SECONDS)).extracting(Delivery::id).containsExactly("s");
  }

  @Test
  void aForcedDeleteAlsoDeletesAJobEnqueuedWhileItRuns() {
    AtomicReference<Runnable> onDrop = new AtomicReference<>();
    Hourglass h = clientRunningOnce("drop", onDrop);
    Hourglass other = manual();
    Queue<byte[]> q = h.configureQueue("race", QueueSettings.builder().partitions(3).build());
    q.enqueue(job(idIn(1, 3, "x")));
    // Enqueued through another client (which takes the queue for existing) right after the first
    // partition was dropped: it recreates that partition.
    onDrop.set(() -> other.queue("race").enqueueAsync(job(idIn(0, 3, "late"))).join());

    assertThat(q.deleteWithJobs()).isEqualTo(2);

    assertThat(redis.server().command("KEYS", "*race*")).isBlank();
  }

  @Test
  void aDeleteThatFindsAJobEnqueuedWhileItRanLeavesTheQueueListedWithIt() {
    AtomicReference<Runnable> onDelete = new AtomicReference<>();
    Hourglass h = clientRunningOnce("queue_delete", onDelete);
    Hourglass other = manual();
    Queue<byte[]> q = h.configureQueue("race", QueueSettings.builder().partitions(3).build());
    String late = idIn(2, 3, "late");
    q.enqueue(job("first"));
    q.ack(q.claim(1, null).get(0));
    Queue<byte[]> stale = other.queue("race");
    stale.stats(); // reads the settings now: it takes the queue for existing from here on
    onDelete.set(() -> stale.enqueueAsync(job(late)).join());

    assertThatThrownBy(q::delete).isInstanceOf(QueueNotEmptyException.class);

    assertThat(h.queueNames()).contains("race");
    assertThat(q.settings().partitions()).isEqualTo(3);
    assertThat(q.get(late)).isPresent();
  }

  /**
   * A client without promoter that runs {@code action} once, when its first call of {@code script}
   * has completed: the moment a concurrent client's request is injected.
   */
  private Hourglass clientRunningOnce(String script, AtomicReference<Runnable> action) {
    AtomicBoolean fired = new AtomicBoolean();
    return client(
        b ->
            b.backgroundPromoter(false)
                .scriptListener(
                    (name, elapsed, failure) -> {
                      if (name.equals(script) && fired.compareAndSet(false, true)) {
                        action.get().run();
                      }
                    }));
  }

  private static String idIn(int partition, int partitions, String prefix) {
    for (int i = 0; ; i++) {
      if (Keys.partitionOf(prefix + i, partitions) == partition) {
        return prefix + i;
      }
    }
  }

  @Test
  void aQueueWithJobsIsNotDeletedAndNothingChanges() {
    Hourglass h = manual();
    Queue<byte[]> q = h.configureQueue("full", QueueSettings.builder().partitions(3).build());
    q.enqueue(spec("dead").maxAttempts(1).build());
    q.nack(q.claim(1, null).get(0), Nack.retry("boom"));
    QueueStats before = q.stats();

    assertThatThrownBy(q::delete)
        .isInstanceOf(QueueNotEmptyException.class)
        .hasMessageContaining("holds 1 job");

    assertThat(q.stats()).isEqualTo(before);
    assertThat(h.queueNames()).contains("full");
    assertThat(q.get("dead")).isPresent();
  }

  @Test
  void deleteWithJobsRemovesEveryKeyAndTheQueueComesBackOnUse() {
    Hourglass h = manual();
    Queue<byte[]> q =
        h.configureQueue(
            "gone",
            QueueSettings.builder().partitions(3).slotWidth(Duration.ofMillis(500)).build());
    for (int i = 0; i < 20; i++) {
      q.enqueue(spec("j" + i).delay(Duration.ofMinutes(i)).build());
    }
    q.claim(2, null);
    q.pause();
    assertThat(redis.server().command("KEYS", "*{gone.*").split("\n").length).isGreaterThan(5);

    assertThat(q.deleteWithJobs()).isEqualTo(20);

    assertThat(redis.server().command("KEYS", "*gone*")).isBlank();
    assertThat(h.queueNames()).doesNotContain("gone");
    assertThat(h.queueExists("gone")).isFalse();
    q.enqueue(job("again"));
    assertThat(h.queueNames()).contains("gone");
    QueueStats fresh = q.stats();
    assertThat(fresh.total()).isEqualTo(1);
    assertThat(fresh.paused()).isFalse();
    assertThat(fresh.counters().enqueued()).isEqualTo(1);
  }

  @Test
  void anEmptyQueueIsDeleted() {
    Hourglass h = manual();
    Queue<byte[]> q = h.queue("empty");
    q.enqueue(job("a"));
    q.ack(q.claim(1, null).get(0));
    q.delete();
    assertThat(h.queueExists("empty")).isFalse();
    assertThat(redis.server().command("KEYS", "*empty*")).isBlank();
  }
}
