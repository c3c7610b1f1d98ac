package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
