package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.internal.Promotions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each operation in each job state, including the conflicts. No background promoter: claim, stats
 * and get follow the Redis clock by themselves, and tests call {@link Queue#promote()} where they
 * mean it. Where a test needs time to pass (a due time, a lease, a ttl), it waits for the Redis
 * clock, which decides.
 */
class QueueOperationsTest extends HourglassTestBase {
  private static final Duration FAR = Duration.ofHours(1);
  Queue<byte[]> q;

  @BeforeEach
  void setUp() {
    q = manual().queue("ops");
  }

  Delivery claimOne() {
    List<Delivery<byte[]>> got = q.claim(1, null);
    assertThat(got).hasSize(1);
    return got.get(0);
  }

  void makeDead(String id) {
    q.enqueue(spec(id).maxAttempts(1).build());
    Delivery<byte[]> d = claimOne();
    assertThat(q.nack(d.id(), d.receipt(), Nack.retry("boom")).dead()).isTrue();
  }

  // ---- enqueue ----

  @Test
  void enqueueDueNowIsReadyAndDelayedIsDelayed() {
    EnqueueResult now = q.enqueue(job("now"));
    EnqueueResult later = q.enqueue(spec("later").delay(FAR).build());
    Instant afterBoth = redisNow();
    assertThat(now.state()).isEqualTo(JobState.READY);
    assertThat(now.created()).isTrue();
    assertThat(later.state()).isEqualTo(JobState.DELAYED);
    // Due FAR after the server's now when the second enqueue ran.
    assertThat(later.runAt().minus(FAR)).isBetween(now.runAt(), afterBoth);
    assertThat(q.get("now").orElseThrow().state()).isEqualTo(JobState.READY);
    assertThat(q.get("later").orElseThrow().state()).isEqualTo(JobState.DELAYED);
  }

  @Test
  void pastRunAtRunsNow() {
    EnqueueResult r = q.enqueue(spec("past").runAt(Instant.parse("2001-01-01T00:00:00Z")).build());
    assertThat(r.state()).isEqualTo(JobState.READY);
    assertThat(claimOne().id()).isEqualTo("past");
  }

  @Test
  void duplicateLiveIdIsRefusedInEveryStateAndChangesNothing() {
    makeDead("x");
    q.enqueue(spec("d").delay(FAR).build());
    q.enqueue(spec("r").runAt(Instant.ofEpochMilli(1)).build());
    q.enqueue(spec("i").runAt(Instant.ofEpochMilli(2)).build());
    // claim "r" first (oldest due), then "i" stays ready; lease "i" as well
    List<Delivery<byte[]>> leased = q.claim(2, null);
    assertThat(leased).extracting(Delivery::id).containsExactly("r", "i");
    q.enqueue(job("r2"));
    for (String id : List.of("d", "r", "i", "x", "r2")) {
      JobInfo<byte[]> before = q.get(id).orElseThrow();
      assertThatThrownBy(() -> q.enqueue(spec(id).payload("other").build()))
          .isInstanceOf(DuplicateJobException.class)
          .hasMessageContaining(id);
      EnqueueResult reported = q.enqueueIfAbsent(spec(id).payload("other").build());
      assertThat(reported.duplicate()).isTrue();
      assertThat(reported.state()).isEqualTo(before.state());
      JobInfo<byte[]> after = q.get(id).orElseThrow();
      assertThat(after.payloadAsString()).isEqualTo("payload-" + id);
      assertThat(after.state()).isEqualTo(before.state());
    }
    assertThat(q.stats().counters().enqueued()).isEqualTo(5);
  }

  @Test
  void idIsReusableAfterAck() {
    q.enqueue(job("a"));
    Delivery<byte[]> d = claimOne();
    q.ack("a", d.receipt());
    assertThat(q.enqueue(job("a")).created()).isTrue();
  }

  @Test
  void generatedIdsAreUniqueAndUrlSafe() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      ids.add(q.enqueue(JobSpec.of(new byte[] {1})).id());
    }
    // 20 URL-safe base-64 characters, '.', and the one that names the record's pool.
    assertThat(ids)
        .doesNotHaveDuplicates()
        .allMatch(id -> id.matches("[A-Za-z0-9_-]{19}\\.[A-Za-z0-9_-]"));
  }

  @Test
  void batchEnqueueReportsDuplicatesInOrder() {
    q.enqueue(job("b1"));
    List<JobSpec> specs = new ArrayList<>();
    for (int i = 0; i < 1200; i++) {
      specs.add(spec("b" + i).delay(i % 2 == 0 ? Duration.ZERO : FAR).build());
    }
    specs.add(job("b5"));
    List<EnqueueResult> results = q.enqueueAll(specs);
    assertThat(results).hasSize(1201);
    for (int i = 0; i < 1200; i++) {
      assertThat(results.get(i).id()).isEqualTo("b" + i);
      assertThat(results.get(i).created()).isEqualTo(i != 1);
    }
    assertThat(results.get(1200).duplicate()).isTrue();
    QueueStats s = q.stats();
    assertThat(s.ready()).isEqualTo(601); // 600 even ids plus b1, enqueued before the batch
    assertThat(s.delayed()).isEqualTo(599); // odd ids but b1
  }

  @Test
  void aDuplicateWithinOneScriptCallReportsTheStateItsTwinWasPlacedIn() {
    // enqueue.lua writes placements after its loop; the duplicate must still see its twin's state.
    List<EnqueueResult> results =
        q.enqueueAll(
            List.of(
                spec("twin-now").delay(Duration.ZERO).build(),
                spec("twin-far").delay(FAR).build(),
                spec("twin-now").delay(FAR).build(),
                spec("twin-far").delay(Duration.ZERO).build()));
    assertThat(results)
        .extracting(EnqueueResult::created)
        .containsExactly(true, true, false, false);
    assertThat(results)
        .extracting(EnqueueResult::state)
        .containsExactly(JobState.READY, JobState.DELAYED, JobState.READY, JobState.DELAYED);
    assertThat(results.get(2).runAt()).isEqualTo(results.get(0).runAt());
    QueueStats s = q.stats();
    assertThat(s.ready()).isEqualTo(1);
    assertThat(s.delayed()).isEqualTo(1);
  }

  @Test
  void receiptsAreDistinctShortAndWorkForTheLongestIds() {
    List<JobSpec> specs = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      String id = String.format("%03d", i) + "x".repeat(125); // 128 characters, the longest id
      specs.add(spec(id).delay(Duration.ZERO).build());
    }
    q.enqueueAll(specs);
    List<Delivery<byte[]>> got = new ArrayList<>(q.claim(200, null));
    got.addAll(q.claim(200, null));
    assertThat(got).hasSize(300);
    assertThat(got).extracting(Delivery::receipt).doesNotHaveDuplicates();
    assertThat(got).allSatisfy(d -> assertThat(d.receipt()).hasSizeLessThanOrEqualTo(64));
    for (Delivery<byte[]> d : got) {
      q.ack(d.id(), d.receipt());
    }
    assertThat(q.stats().counters().acked()).isEqualTo(300);
  }

  @Test
  void batchWithOneInvalidSpecWritesNothing() {
    List<JobSpec> specs = List.of(job("ok1"), job("ok2"));
    Hourglass small = client(b -> b.backgroundPromoter(false).maxPayloadBytes(8));
    assertThatThrownBy(() -> small.queue("ops").enqueueAll(specs))
        .isInstanceOf(PayloadTooLargeException.class)
        .hasMessageContaining("specs[0]");
    assertThat(q.stats().total()).isZero();
  }

  // ---- claim / ack / nack / extend ----

  @Test
  void claimLeasesOldestDueFirstAndCountsTheAttempt() {
    q.enqueue(spec("late").runAt(Instant.ofEpochMilli(2000)).build());
    q.enqueue(spec("early").runAt(Instant.ofEpochMilli(1000)).build());
    Instant before = redisNow();
    List<Delivery<byte[]>> got = q.claim(5, Duration.ofSeconds(10));
    Instant after = redisNow();
    assertThat(got).extracting(Delivery::id).containsExactly("early", "late");
    Delivery<byte[]> d = got.get(0);
    assertThat(d.attempt()).isEqualTo(1);
    assertThat(d.payloadAsString()).isEqualTo("payload-early");
    // Leased for 10 s from the server's now when the claim ran.
    assertThat(d.leaseUntil().minusSeconds(10)).isBetween(before, after);
    JobInfo<byte[]> info = q.get("early").orElseThrow();
    assertThat(info.state()).isEqualTo(JobState.INFLIGHT);
    assertThat(info.leaseUntil()).contains(d.leaseUntil());
    assertThat(q.claim(5, null)).isEmpty();
  }

  @Test
  void anInflightJobsAttemptsCountTheDeliveryRunningAsItsClaimDoes() {
    q.enqueue(spec("a").maxAttempts(3).build());
    Delivery<byte[]> first = claimOne();

    assertThat(first.attempt()).isEqualTo(1);
    assertThat(q.get("a").orElseThrow().attempts()).isEqualTo(1);
    assertThat(q.jobs(JobState.INFLIGHT, 10, null).jobs())
        .singleElement()
        .satisfies(j -> assertThat(j.attempts()).isEqualTo(1));

    q.nack("a", first.receipt(), Nack.retryAfter(Duration.ZERO, "once"));
    assertThat(q.get("a").orElseThrow().attempts()).as("one delivery made").isEqualTo(1);
    Delivery<byte[]> second = claimOne();
    assertThat(second.attempt()).isEqualTo(2);
    assertThat(q.get("a").orElseThrow().attempts()).isEqualTo(2);
  }

  @Test
  void aNackByIdBacksOffFromTheAttemptItFails() {
    q.enqueue(spec("a").maxAttempts(3).backoff(Backoff.schedule(FAR, FAR.multipliedBy(5))).build());
    Delivery<byte[]> first = claimOne();
    Instant before = redisNow();

    q.nack("a", first.receipt(), Nack.retry("first"));

    // Attempt 1 waits the schedule's first delay, not its second.
    assertThat(q.get("a").orElseThrow().runAt()).isBetween(before.plus(FAR), redisNow().plus(FAR));
  }

  @Test
  void releaseHandsTheJobBackWithoutSpendingTheAttempt() {
    q.enqueue(spec("a").build());
    Delivery<byte[]> first = claimOne();
    assertThatThrownBy(() -> q.release("a", "not-the-receipt"))
        .isInstanceOf(StaleReceiptException.class);

    q.release("a", first.receipt());

    assertThat(q.get("a").orElseThrow().state()).isEqualTo(JobState.READY);
    assertThatThrownBy(() -> q.release("a", first.receipt()))
        .isInstanceOf(StaleReceiptException.class);
    Delivery<byte[]> second = claimOne();
    assertThat(second.attempt()).isEqualTo(1);
    q.ack("a", second.receipt());
    assertThatThrownBy(() -> q.release("a", second.receipt()))
        .isInstanceOf(JobNotFoundException.class);
  }

  @Test
  void ackWithStaleOrWrongReceiptIsRefused() {
    q.enqueue(spec("a").visibility(Duration.ofMillis(50)).build());
    Delivery<byte[]> first = claimOne();
    assertThatThrownBy(() -> q.ack("a", "not-the-receipt"))
        .isInstanceOf(StaleReceiptException.class);
    awaitRedisClockPast(first.leaseUntil());
    Promotions.now(q); // lease lapsed: back to ready, attempt counted
    assertThat(q.get("a").orElseThrow().state()).isEqualTo(JobState.READY);
    assertThatThrownBy(() -> q.ack("a", first.receipt())).isInstanceOf(StaleReceiptException.class);
    Delivery<byte[]> second = claimOne();
    assertThat(second.attempt()).isEqualTo(2);
    assertThat(second.lastError()).contains("lease expired");
    assertThatThrownBy(() -> q.ack("a", first.receipt())).isInstanceOf(StaleReceiptException.class);
    assertThatThrownBy(() -> q.nack("a", first.receipt(), Nack.retry("x")))
        .isInstanceOf(StaleReceiptException.class);
    assertThatThrownBy(() -> q.extend("a", first.receipt(), Duration.ofSeconds(1)))
        .isInstanceOf(StaleReceiptException.class);
    q.ack("a", second.receipt());
    assertThat(q.get("a")).isEmpty();
    assertThatThrownBy(() -> q.ack("a", second.receipt())).isInstanceOf(JobNotFoundException.class);
    QueueStats s = q.stats();
    assertThat(s.counters().acked()).isEqualTo(1);
    assertThat(s.counters().retried()).isEqualTo(1);
  }

  @Test
  void ackBeforeTheSweepOfALapsedLeaseStillCounts() {
    q.enqueue(spec("a").visibility(Duration.ofMillis(20)).build());
    Delivery<byte[]> d = claimOne();
    awaitRedisClockPast(d.leaseUntil());
    q.ack("a", d.receipt()); // nobody else holds it: the only delivery may still finish
    assertThat(q.get("a")).isEmpty();
  }

  @Test
  void ackOfAReadyOrDelayedJobIsStale() {
    q.enqueue(job("r"));
    q.enqueue(spec("d").delay(FAR).build());
    assertThatThrownBy(() -> q.ack("r", "x.1")).isInstanceOf(StaleReceiptException.class);
    assertThatThrownBy(() -> q.ack("d", "x.1")).isInstanceOf(StaleReceiptException.class);
    assertThatThrownBy(() -> q.ack("nope", "x.1")).isInstanceOf(JobNotFoundException.class);
  }

  @Test
  void nackRetriesByBackoffThenDies() {
    q.enqueue(spec("n").maxAttempts(3).backoff(Backoff.fixed(Duration.ofMillis(100))).build());
    Delivery<byte[]> d1 = claimOne();
    NackResult r1 = q.nack("n", d1.receipt(), Nack.retry("first failure"));
    assertThat(r1.dead()).isFalse();
    JobInfo<byte[]> after1 = q.get("n").orElseThrow();
    assertThat(after1.state()).isEqualTo(JobState.DELAYED);
    assertThat(after1.attempts()).isEqualTo(1);
    assertThat(after1.lastError()).contains("first failure");
    assertThat(Duration.between(d1.dueAt(), after1.runAt())).isPositive();
    assertThat(q.claim(1, null)).isEmpty();
    awaitRedisClockPast(after1.runAt());
    Delivery<byte[]> d2 = claimOne(); // due by the server clock: no promoter needed
    assertThat(d2.attempt()).isEqualTo(2);
    assertThat(d2.lastError()).contains("first failure");
    q.nack("n", d2.receipt(), Nack.retryAfter(Duration.ZERO, "second"));
    assertThat(q.get("n").orElseThrow().state()).isEqualTo(JobState.READY);
    Delivery<byte[]> d3 = claimOne();
    assertThat(d3.lastAttempt()).isTrue();
    NackResult r3 = q.nack("n", d3.receipt(), Nack.retry("third"));
    assertThat(r3.dead()).isTrue();
    JobInfo<byte[]> dead = q.get("n").orElseThrow();
    assertThat(dead.state()).isEqualTo(JobState.DEAD);
    assertThat(dead.attempts()).isEqualTo(3);
    assertThat(dead.diedAt()).isPresent();
    assertThat(dead.lastError()).contains("third");
    QueueStats s = q.stats();
    assertThat(s.counters().retried()).isEqualTo(2);
    assertThat(s.counters().dead()).isEqualTo(1);
    assertThat(s.dead()).isEqualTo(1);
  }

  @Test
  void nackKillGoesToDeadAtOnce() {
    q.enqueue(spec("k").maxAttempts(10).build());
    Delivery<byte[]> d = claimOne();
    assertThat(q.nack("k", d.receipt(), Nack.kill("poison")).dead()).isTrue();
    assertThat(q.get("k").orElseThrow().state()).isEqualTo(JobState.DEAD);
  }

  @Test
  void nackWithExplicitDelayUsesIt() {
    q.enqueue(job("e"));
    Delivery<byte[]> d = claimOne();
    Instant before = redisNow();
    NackResult r = q.nack("e", d.receipt(), Nack.retryAfter(Duration.ofMinutes(10), "later"));
    Instant after = redisNow();
    // Due 10 minutes after the server's now when the nack ran.
    assertThat(r.at().minus(Duration.ofMinutes(10))).isBetween(before, after);
    assertThat(q.get("e").orElseThrow().runAt()).isEqualTo(r.at());
  }

  @Test
  void extendPushesTheLeaseAndKeepsTheJob() {
    q.enqueue(spec("x").visibility(Duration.ofMillis(200)).build());
    Delivery<byte[]> d = claimOne();
    Instant until = q.extend("x", d.receipt(), Duration.ofMinutes(5));
    assertThat(until).isAfter(d.leaseUntil().plusSeconds(200));
    awaitRedisClockPast(d.leaseUntil()); // the lease it had before the extension
    Promotions.now(q);
    assertThat(q.get("x").orElseThrow().state()).isEqualTo(JobState.INFLIGHT);
    q.ack("x", d.receipt());
    assertThatThrownBy(() -> q.extend("x", d.receipt(), Duration.ofSeconds(1)))
        .isInstanceOf(JobNotFoundException.class);
  }

  @Test
  void expiredLeaseOnLastAttemptGoesDead() {
    q.enqueue(spec("l").maxAttempts(1).visibility(Duration.ofMillis(20)).build());
    Delivery<byte[]> d = claimOne();
    awaitRedisClockPast(d.leaseUntil());
    Promotions.now(q);
    JobInfo<byte[]> j = q.get("l").orElseThrow();
    assertThat(j.state()).isEqualTo(JobState.DEAD);
    assertThat(j.lastError()).contains("lease expired");
  }

  // ---- cancel ----

  @Test
  void cancelWorksInEveryStateButInflight() {
    q.enqueue(spec("d").delay(FAR).build());
    makeDead("x");
    q.enqueue(spec("r").runAt(Instant.ofEpochMilli(1)).build());
    q.enqueue(spec("i").runAt(Instant.ofEpochMilli(2)).build());
    Delivery<byte[]> leased = q.claim(1, null).get(0);
    assertThat(leased.id()).isEqualTo("r");
    // "i" is ready now, "r" inflight
    assertThat(q.cancel("d")).isTrue();
    assertThat(q.cancel("x")).isTrue();
    assertThat(q.cancel("i")).isTrue();
    assertThatThrownBy(() -> q.cancel("r"))
        .isInstanceOf(JobStateException.class)
        .satisfies(e -> assertThat(((JobStateException) e).state()).isEqualTo(JobState.INFLIGHT));
    assertThat(q.get("r").orElseThrow().state()).isEqualTo(JobState.INFLIGHT);
    assertThat(q.cancel("nope")).isFalse();
    assertThat(q.cancel("d")).isFalse();
    for (String id : List.of("d", "x", "i")) {
      assertThat(q.get(id)).isEmpty();
    }
    QueueStats s = q.stats();
    assertThat(s.counters().cancelled()).isEqualTo(3);
    assertThat(s.total()).isEqualTo(1);
    assertThat(s.inflight()).isEqualTo(1);
  }

  @Test
  void cancelledSlotResidentJobIsNeverPromotedEvenIfTheIdIsReused() {
    Queue<byte[]> slotted =
        manual()
            .configureQueue(
                "slotted", QueueSettings.builder().slotWidth(Duration.ofMillis(200)).build());
    EnqueueResult cancelled = slotted.enqueue(spec("s").delay(Duration.ofMillis(900)).build());
    assertThat(slotted.cancel("s")).isTrue();
    slotted.enqueue(spec("s").payload("second").delay(FAR).build());
    awaitRedisClockPast(cancelled.runAt()); // the cancelled entry's slot is due
    Promotions.now(slotted);
    Promotions.now(slotted);
    assertThat(slotted.get("s").orElseThrow().state()).isEqualTo(JobState.DELAYED);
    assertThat(slotted.claim(10, null)).isEmpty();
  }

  // ---- reschedule ----

  @Test
  void rescheduleDelayedAndReady() {
    q.enqueue(spec("d").delay(FAR).build());
    q.enqueue(job("r"));
    JobInfo<byte[]> d = q.reschedule("d", Duration.ZERO);
    assertThat(d.state()).isEqualTo(JobState.READY);
    JobInfo<byte[]> r = q.reschedule("r", FAR);
    assertThat(r.state()).isEqualTo(JobState.DELAYED);
    assertThat(q.claim(10, null)).extracting(Delivery::id).containsExactly("d");
    JobInfo<byte[]> abs = q.reschedule("r", Instant.parse("2001-01-01T00:00:00Z"));
    assertThat(abs.state()).isEqualTo(JobState.READY);
    assertThat(abs.runAt()).isEqualTo(Instant.parse("2001-01-01T00:00:00Z"));
  }

  @Test
  void rescheduleRefusesInflightDeadAndMissing() {
    makeDead("x");
    q.enqueue(job("i"));
    claimOne();
    assertThatThrownBy(() -> q.reschedule("i", FAR)).isInstanceOf(JobStateException.class);
    assertThatThrownBy(() -> q.reschedule("x", FAR))
        .isInstanceOf(JobStateException.class)
        .satisfies(e -> assertThat(((JobStateException) e).state()).isEqualTo(JobState.DEAD));
    assertThatThrownBy(() -> q.reschedule("nope", FAR)).isInstanceOf(JobNotFoundException.class);
    assertThat(q.get("i").orElseThrow().state()).isEqualTo(JobState.INFLIGHT);
    assertThat(q.get("x").orElseThrow().state()).isEqualTo(JobState.DEAD);
  }

  @Test
  void rescheduledSlotJobIsDeliveredOnceAtTheNewTime() {
    Queue<byte[]> slotted =
        manual()
            .configureQueue(
                "slotted2", QueueSettings.builder().slotWidth(Duration.ofMillis(200)).build());
    EnqueueResult first = slotted.enqueue(spec("s").delay(Duration.ofMillis(800)).build());
    slotted.reschedule("s", FAR);
    awaitRedisClockPast(first.runAt()); // the slot of its first due time is due
    Promotions.now(slotted);
    Promotions.now(slotted);
    assertThat(slotted.claim(10, null)).isEmpty();
    slotted.reschedule("s", Duration.ZERO);
    assertThat(slotted.claim(10, null)).extracting(Delivery::id).containsExactly("s");
    assertThat(slotted.claim(10, null)).isEmpty();
  }

  // ---- get ----

  @Test
  void getShowsEverything() {
    q.enqueue(
        spec("g")
            .payload(new byte[] {0, 1, 2, (byte) 255})
            .delay(FAR)
            .maxAttempts(7)
            .backoff(Backoff.parseSchedule("15s 3m 10m"))
            .visibility(Duration.ofSeconds(45))
            .ttl(Duration.ofDays(2))
            .build());
    JobInfo<byte[]> j = q.get("g").orElseThrow();
    assertThat(j.payload().bytes()).containsExactly(0, 1, 2, 255);
    assertThat(j.maxAttempts()).isEqualTo(7);
    assertThat(j.attempts()).isZero();
    assertThat(j.visibility()).isEqualTo(Duration.ofSeconds(45));
    assertThat(j.backoff())
        .isEqualTo(
            Backoff.schedule(
                Duration.ofSeconds(15), Duration.ofMinutes(3), Duration.ofMinutes(10)));
    assertThat(j.expiresAt()).isPresent();
    assertThat(Duration.between(j.createdAt(), j.expiresAt().get())).isEqualTo(Duration.ofDays(2));
    assertThat(j.lastError()).isEmpty();
    assertThat(q.get("missing")).isEqualTo(Optional.empty());
  }

  // ---- ttl ----

  @Test
  void ttlDropsJobsWhereverTheyAre() {
    Duration ttl = Duration.ofMillis(150);
    q.enqueue(spec("d").delay(FAR).ttl(ttl).build());
    q.enqueue(spec("r").ttl(ttl).build());
    q.enqueue(spec("keep").build());
    awaitRedisClockPast(q.get("r").orElseThrow().expiresAt().orElseThrow()); // the later of both
    assertThat(q.get("d")).isEmpty(); // reported gone at once, swept by the next promote
    Promotions.now(q);
    assertThat(q.claim(10, null)).extracting(Delivery::id).containsExactly("keep");
    QueueStats s = q.stats();
    assertThat(s.counters().expired()).isEqualTo(2);
    assertThat(s.total()).isEqualTo(1);
  }

  @Test
  void ttlDropsAnInflightJob() {
    q.enqueue(spec("i").ttl(Duration.ofMillis(100)).build());
    Instant expires = q.get("i").orElseThrow().expiresAt().orElseThrow();
    Delivery<byte[]> d = claimOne();
    awaitRedisClockPast(expires);
    Promotions.now(q);
    assertThat(q.get("i")).isEmpty();
    assertThatThrownBy(() -> q.ack("i", d.receipt())).isInstanceOf(JobNotFoundException.class);
  }

  // ---- dead letters ----

  @Test
  void deadLettersPageRequeueAndPurge() {
    for (int i = 0; i < 25; i++) {
      makeDead("dead" + i);
    }
    List<String> seen = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      JobPage<byte[]> page = q.dead().list(cursor, 10);
      page.jobs()
          .forEach(
              j -> {
                assertThat(j.state()).isEqualTo(JobState.DEAD);
                assertThat(j.lastError()).contains("boom");
                seen.add(j.id());
              });
      cursor = page.next().orElse(null);
      pages++;
    } while (cursor != null);
    assertThat(seen).hasSize(25).doesNotHaveDuplicates();
    assertThat(pages).isBetween(3, 4);

    q.dead().requeue("dead3");
    JobInfo<byte[]> requeued = q.get("dead3").orElseThrow();
    assertThat(requeued.state()).isEqualTo(JobState.READY);
    assertThat(requeued.attempts()).isZero();
    assertThat(requeued.lastError()).contains("boom");
    assertThatThrownBy(() -> q.dead().requeue("dead3"))
        .isInstanceOf(JobStateException.class)
        .hasMessage("cannot requeue job dead3 in queue ops: it is ready")
        .satisfies(e -> assertThat(((JobStateException) e).state()).isEqualTo(JobState.READY));
    assertThatThrownBy(() -> q.dead().requeue("never"))
        .isInstanceOf(JobNotFoundException.class)
        .hasMessage("queue ops has no job with id never");

    assertThat(q.dead().requeueAll()).isEqualTo(24);
    assertThat(q.stats().ready()).isEqualTo(25);
    for (Delivery<byte[]> d : q.claim(100, null)) {
      q.nack(d.id(), d.receipt(), Nack.kill("again"));
    }
    assertThat(q.dead().count()).isEqualTo(25);
    assertThat(q.dead().purge()).isEqualTo(25);
    assertThat(q.stats().total()).isZero();
    assertThat(q.dead().list(null, 10).jobs()).isEmpty();
  }

  @Test
  void requeueOfALiveJobThatIsNotDeadSaysItsState() {
    q.enqueue(spec("delayed").delay(FAR).build());
    q.enqueue(job("inflight"));
    claimOne();

    for (String id : List.of("delayed", "inflight")) {
      assertThatThrownBy(() -> q.dead().requeue(id))
          .isInstanceOf(JobStateException.class)
          .hasMessage("cannot requeue job " + id + " in queue ops: it is " + id);
    }
    assertThat(q.get("delayed").orElseThrow().state()).isEqualTo(JobState.DELAYED);
    assertThat(q.get("inflight").orElseThrow().state()).isEqualTo(JobState.INFLIGHT);
  }

  @Test
  void deadRetentionByCountAndAge() {
    Queue<byte[]> r =
        manual()
            .configureQueue(
                "retained",
                QueueSettings.builder().deadMaxCount(3).deadMaxAge(Duration.ofMillis(300)).build());
    for (int i = 0; i < 5; i++) {
      r.enqueue(spec("r" + i).maxAttempts(1).build());
      Delivery<byte[]> d = r.claim(1, null).get(0);
      r.nack(d.id(), d.receipt(), Nack.retry("x"));
    }
    Promotions.now(r);
    List<JobInfo<byte[]>> kept = r.dead().list(null, 10).jobs();
    assertThat(kept).extracting(JobInfo::id).containsExactly("r2", "r3", "r4");
    Instant lastDeath =
        kept.stream().map(j -> j.diedAt().orElseThrow()).max(Instant::compareTo).get();
    awaitRedisClockPast(lastDeath.plusMillis(300)); // past the retention age of every dead job
    Promotions.now(r);
    assertThat(r.dead().count()).isZero();
    assertThat(r.stats().total()).isZero();
  }

  @Test
  void badCursorIsRefused() {
    assertThatThrownBy(() -> q.dead().list("%%%", 10)).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> q.dead().list(null, 0))
        .isInstanceOf(InvalidArgumentException.class)
        .extracting(e -> ((InvalidArgumentException) e).field())
        .isEqualTo("limit");
  }

  // ---- stats and queues ----

  @Test
  void statsCountEveryStateAndQueuesAreListed() {
    Hourglass h = manual();
    Queue<byte[]> s = h.queue("stats");
    s.enqueue(spec("d").delay(FAR).build());
    s.enqueue(job("r"));
    s.enqueue(job("i"));
    s.enqueue(spec("x").maxAttempts(1).build());
    List<Delivery<byte[]>> got = s.claim(3, null);
    Delivery<byte[]> x = got.stream().filter(d -> d.id().equals("x")).findFirst().orElseThrow();
    s.nack("x", x.receipt(), Nack.retry("e"));
    Delivery<byte[]> r = got.stream().filter(d -> d.id().equals("r")).findFirst().orElseThrow();
    s.ack("r", r.receipt());
    QueueStats st = s.stats();
    assertThat(st.delayed()).isEqualTo(1);
    assertThat(st.ready()).isZero();
    assertThat(st.inflight()).isEqualTo(1);
    assertThat(st.dead()).isEqualTo(1);
    assertThat(st.counters().enqueued()).isEqualTo(4);
    assertThat(st.counters().acked()).isEqualTo(1);
    assertThat(st.counters().dead()).isEqualTo(1);
    h.queue("another").enqueue(job("a"));
    assertThat(h.queueNames()).containsExactly("another", "stats"); // "ops" was never used
  }

  @Test
  void partitionedQueueSpreadsJobsAndStillFindsThemById() {
    Hourglass h = manual();
    Queue<byte[]> p =
        h.configureQueue("wide", QueueSettings.builder().partitions(4).pools(4).build());
    for (int i = 0; i < 40; i++) {
      p.enqueue(job("w" + i));
    }
    assertThat(p.get("w7")).isPresent();
    long distinctTags =
        redis
            .server()
            .command("KEYS", "hg:{wide.*}:near")
            .lines()
            .filter(l -> l.contains("near"))
            .count();
    assertThat(distinctTags).isGreaterThan(1);
    List<Delivery<byte[]>> all = new ArrayList<>();
    for (int i = 0; i < 10 && all.size() < 40; i++) {
      all.addAll(p.claim(40 - all.size(), null));
    }
    assertThat(all).extracting(Delivery::id).hasSize(40).doesNotHaveDuplicates();
    for (Delivery<byte[]> d : all) {
      p.ack(d.id(), d.receipt());
    }
    assertThat(p.stats().counters().acked()).isEqualTo(40);
    assertThat(p.stats().partitions()).isEqualTo(4);
  }

  @Test
  void partitionsAreFixedAtCreation() {
    Hourglass h = manual();
    h.configureQueue("fixed", QueueSettings.builder().partitions(2).build());
    assertThatThrownBy(
            () -> h.configureQueue("fixed", QueueSettings.builder().partitions(3).build()))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("partitions");
    Queue<byte[]> updated =
        h.configureQueue("fixed", QueueSettings.builder().partitions(2).maxAttempts(9).build());
    assertThat(updated.settings().maxAttempts()).isEqualTo(9);
    assertThat(updated.enqueue(job("f")).created()).isTrue();
    assertThat(updated.get("f").orElseThrow().maxAttempts()).isEqualTo(9);
  }
}
