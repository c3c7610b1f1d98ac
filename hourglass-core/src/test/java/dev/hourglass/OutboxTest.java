package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.hourglass.internal.Promotions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The outbox of finished jobs: the script that finishes a job records it, with the fields an
 * archive keeps, in every way a job can finish; nothing is recorded while recording is off; the
 * bound drops the oldest and counts them.
 */
class OutboxTest extends HourglassTestBase {

  @Test
  void everyOutcomeIsRecordedByTheScriptThatFinishesTheJob() {
    Hourglass h = manual();
    h.outbox().enable(1000);
    Queue<byte[]> q = h.configureQueue("o", QueueSettings.builder().partitions(2).build());
    Instant before = redisNow();

    q.enqueue(job("acked"));
    q.enqueue(spec("killed").maxAttempts(5).build());
    q.enqueue(spec("spent").maxAttempts(2).build());
    q.enqueue(spec("cancelled").delay(Duration.ofHours(1)).build());
    Map<String, Delivery<byte[]>> got = claimAll(q, Duration.ofMinutes(5));
    assertThat(got).containsOnlyKeys("acked", "killed", "spent");
    q.ack(got.get("acked"));
    q.nack(got.get("killed"), Nack.kill("bad payload"));
    q.nack(got.get("spent"), Nack.retryAfter(Duration.ZERO, "first failure"));
    assertThat(q.cancel("cancelled")).isTrue();
    Delivery<byte[]> spentAgain = awaitClaim(q, "spent");
    q.nack(spentAgain, Nack.retry("second failure"));

    q.enqueue(spec("lapsed").maxAttempts(1).build());
    assertThat(claimAll(q, Duration.ofMillis(100))).containsOnlyKeys("lapsed");
    q.enqueue(spec("expired").ttl(Duration.ofMillis(300)).build()); // ready, and never claimed
    await("the lapsed lease and the ttl pass")
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(20))
        .until(
            () -> {
              Promotions.now(q);
              QueueStats s = q.stats();
              return s.counters().expired() == 1 && s.counters().dead() == 3;
            });
    assertThat(q.dead().purge()).isEqualTo(3);

    Map<String, List<FinishedJob>> byId = readAll(h, q);
    assertThat(outcomes(byId.get("acked"))).containsExactly(JobOutcome.ACKED);
    assertThat(outcomes(byId.get("killed"))).containsExactly(JobOutcome.DEAD, JobOutcome.PURGED);
    assertThat(outcomes(byId.get("spent"))).containsExactly(JobOutcome.DEAD, JobOutcome.PURGED);
    assertThat(outcomes(byId.get("lapsed"))).containsExactly(JobOutcome.DEAD, JobOutcome.PURGED);
    assertThat(outcomes(byId.get("cancelled"))).containsExactly(JobOutcome.CANCELLED);
    assertThat(outcomes(byId.get("expired"))).containsExactly(JobOutcome.EXPIRED);

    FinishedJob acked = byId.get("acked").get(0);
    assertThat(acked.attempts()).isEqualTo(1);
    assertThat(acked.lastError()).isEmpty();
    assertThat(acked.payload().asString()).isEqualTo("payload-acked");
    assertThat(acked.queue()).isEqualTo("o");
    assertThat(acked.createdAt()).isAfterOrEqualTo(before.minusMillis(1));
    assertThat(acked.finishedAt()).isAfterOrEqualTo(acked.createdAt());
    assertThat(acked.runAt()).isAfterOrEqualTo(acked.createdAt());

    FinishedJob killed = byId.get("killed").get(0);
    assertThat(killed.attempts()).isEqualTo(1);
    assertThat(killed.lastError()).contains("bad payload");
    FinishedJob spent = byId.get("spent").get(0);
    assertThat(spent.attempts()).isEqualTo(2);
    assertThat(spent.lastError()).contains("second failure");
    FinishedJob lapsed = byId.get("lapsed").get(0);
    assertThat(lapsed.attempts()).isEqualTo(1);
    assertThat(lapsed.lastError()).contains("lease expired");
    assertThat(byId.get("cancelled").get(0).runAt())
        .isAfter(byId.get("cancelled").get(0).createdAt().plus(Duration.ofMinutes(59)));
    assertThat(byId.get("expired").get(0).attempts()).isZero();
    assertThat(h.outbox().size("o")).isEqualTo(new Outbox.OutboxSize(0, 0));
  }

  @Test
  void aQueueCreatedAfterEnableRecordsFromItsFirstJobAndOneCreatedBeforeIsMarked() {
    Hourglass h = manual();
    Queue<byte[]> old = h.configureQueue("old", QueueSettings.builder().partitions(3).build());
    old.enqueue(job("before-enable"));
    ackAll(old, 1);
    h.outbox().enable(1000);
    assertThat(h.outbox().size("old").waiting()).isZero();
    old.enqueue(job("after-enable"));
    ackAll(old, 1);

    // Another client, which has not read anything yet, creates the queue by its first enqueue.
    Hourglass other = manual();
    Queue<byte[]> fresh = other.queue("fresh");
    for (int i = 0; i < 20; i++) {
      fresh.enqueue(job("f" + i));
    }
    ackAll(fresh, 20);

    assertThat(readAll(h, old).keySet()).containsExactly("after-enable");
    assertThat(readAll(h, fresh)).hasSize(20);
  }

  @Test
  void nothingIsRecordedWhileRecordingIsOff() {
    Hourglass h = manual();
    Queue<byte[]> q = h.queue("off");
    q.enqueue(job("a"));
    ackAll(q, 1);
    assertThat(h.outbox().bound()).isEmpty();
    assertThat(redis.server().command("EXISTS", "hg:{off.0}:outbox")).isEqualTo("0");

    h.outbox().enable(10);
    assertThat(h.outbox().bound()).hasValue(10);
    q.enqueue(job("b"));
    ackAll(q, 1);
    h.outbox().disable();
    assertThat(h.outbox().bound()).isEmpty();
    q.enqueue(job("c"));
    ackAll(q, 1);
    assertThat(readAll(h, q).keySet()).containsExactly("b");
  }

  @Test
  void pastTheBoundTheOldestRecordsAreDroppedAndCounted() {
    Hourglass h = manual();
    h.outbox().enable(5);
    Queue<byte[]> q = h.configureQueue("bounded", QueueSettings.builder().partitions(1).build());
    for (int i = 0; i < 8; i++) {
      q.enqueue(job("j" + i));
    }
    ackAll(q, 8);
    assertThat(h.outbox().size("bounded")).isEqualTo(new Outbox.OutboxSize(5, 3));
    List<FinishedJob> kept = h.outbox().read("bounded", 0, 100);
    assertThat(kept)
        .extracting(FinishedJob::id)
        .containsExactlyInAnyOrder("j3", "j4", "j5", "j6", "j7");
    assertThat(kept).extracting(FinishedJob::recordId).isSorted();

    h.outbox().remove("bounded", 0, List.of(kept.get(0).recordId(), kept.get(1).recordId(), "1-1"));
    assertThat(h.outbox().size("bounded")).isEqualTo(new Outbox.OutboxSize(3, 3));
    h.outbox().enable(2); // a lower bound trims at once
    assertThat(h.outbox().size("bounded").waiting()).isEqualTo(2);
  }

  @Test
  void badArgumentsAreRefusedAndReadingADeletedQueueDoesNotCreateIt() {
    Hourglass h = manual();
    assertThatThrownBy(() -> h.outbox().enable(0)).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> h.outbox().read("q", 0, 0))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> h.outbox().read("a b", 0, 1))
        .isInstanceOf(InvalidArgumentException.class);
    h.queue("q").enqueue(job("x"));
    assertThatThrownBy(() -> h.outbox().read("q", 9, 1))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> h.outbox().read("q", -1, 1))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> h.outbox().remove("q", 0, null))
        .isInstanceOf(InvalidArgumentException.class);
    assertThat(h.outbox().read("never", 0, 10)).isEmpty();
    assertThat(h.queueExists("never")).isFalse();
  }

  private static Map<String, Delivery<byte[]>> claimAll(Queue<byte[]> q, Duration visibility) {
    Map<String, Delivery<byte[]>> got = new HashMap<>();
    for (Delivery<byte[]> d : q.claim(100, visibility)) {
      got.put(d.id(), d);
    }
    return got;
  }

  private static Delivery<byte[]> awaitClaim(Queue<byte[]> q, String id) {
    List<Delivery<byte[]>> found = new ArrayList<>();
    await("job " + id + " is ready again")
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(10))
        .until(
            () -> {
              for (Delivery<byte[]> d : q.claim(10, Duration.ofMinutes(5))) {
                assertThat(d.id()).isEqualTo(id);
                found.add(d);
              }
              return !found.isEmpty();
            });
    return found.get(0);
  }

  private static void ackAll(Queue<byte[]> q, int n) {
    int acked = 0;
    while (acked < n) {
      List<Delivery<byte[]>> got = q.claim(n - acked, Duration.ofMinutes(1));
      assertThat(got).as("ready jobs to ack").isNotEmpty();
      for (Delivery<byte[]> d : got) {
        q.ack(d);
        acked++;
      }
    }
  }

  /** Every record of the queue's outbox by job id, in the order recorded; the outbox is emptied. */
  private static Map<String, List<FinishedJob>> readAll(Hourglass h, Queue<byte[]> q) {
    Map<String, List<FinishedJob>> byId = new HashMap<>();
    for (int p = 0; p < q.settings().partitions(); p++) {
      List<FinishedJob> read = h.outbox().read(q.name(), p, 1000);
      for (FinishedJob f : read) {
        assertThat(f.partition()).isEqualTo(p);
        byId.computeIfAbsent(f.id(), k -> new ArrayList<>()).add(f);
      }
      h.outbox().remove(q.name(), p, read.stream().map(FinishedJob::recordId).toList());
    }
    return byId;
  }

  private static List<JobOutcome> outcomes(List<FinishedJob> records) {
    assertThat(records).as("records").isNotNull();
    return records.stream().map(FinishedJob::outcome).toList();
  }
}
