package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Jobs listed by state across partitions: every job of the state exactly once, in one order across
 * pages, wherever it waits (near, slot lists with the stale entries cancel and reschedule leave),
 * following the Redis clock with no promoter. Clients here have the background promoter off.
 */
class JobsByStateTest extends HourglassTestBase {
  private static final Comparator<JobInfo<byte[]>> BY_DUE =
      Comparator.comparing((JobInfo<byte[]> j) -> j.runAt()).thenComparing(JobInfo::id);

  private Queue<byte[]> queue(Hourglass h, String name, Duration slotWidth) {
    return h.configureQueue(
        name, QueueSettings.builder().partitions(3).slotWidth(slotWidth).build());
  }

  /** Every page of a state, following the cursors with pages of {@code limit}. */
  private static List<JobInfo<byte[]>> all(Queue<byte[]> q, JobState state, int limit) {
    List<JobInfo<byte[]>> out = new ArrayList<>();
    String cursor = null;
    for (int pages = 0; pages < 1000; pages++) {
      JobPage<byte[]> page = q.jobs(state, limit, cursor);
      assertThat(page.jobs().size()).isLessThanOrEqualTo(limit);
      out.addAll(page.jobs());
      if (page.next().isEmpty()) {
        return out;
      }
      cursor = page.next().get();
    }
    throw new AssertionError("pages never end");
  }

  @Test
  void delayedJobsInNearAndSlotListsAreListedOnceInDueOrderAcrossPartitionsAndPages() {
    Hourglass h = manual();
    Queue<byte[]> q = queue(h, "listed", Duration.ofSeconds(1));
    Random random = new Random(7);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      String id = "j" + i;
      // Some share a due time (ties go by id); many land in slot lists of 1 s.
      long delayMs = 60_000 + (i % 10 == 0 ? 5_000 : random.nextInt(3_600_000));
      q.enqueue(spec(id).delay(Duration.ofMillis(delayMs)).build());
      expected.add(id);
    }
    // Stale slot entries: a cancelled job, and jobs rescheduled to other slots (later and earlier).
    assertThat(q.cancel("j1")).isTrue();
    expected.remove("j1");
    q.reschedule("j2", Duration.ofHours(5));
    q.reschedule("j3", Duration.ofSeconds(90));
    q.reschedule("j4", Duration.ofMinutes(30));

    List<JobInfo<byte[]>> listed = all(q, JobState.DELAYED, 7);

    assertThat(listed).extracting(JobInfo::id).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(listed).isSortedAccordingTo(BY_DUE);
    assertThat(listed).allSatisfy(j -> assertThat(j.state()).isEqualTo(JobState.DELAYED));
    for (JobInfo<byte[]> j : listed) {
      assertThat(j.runAt()).isEqualTo(q.get(j.id()).orElseThrow().runAt());
    }
    assertThat(all(q, JobState.DELAYED, 1000)).extracting(JobInfo::id).isEqualTo(ids(listed));
    assertThat(all(q, JobState.READY, 5)).isEmpty();
  }

  @Test
  void readyInflightAndDeadAreListedInTheirOrderWithTheirTimes() {
    Hourglass h = manual();
    Queue<byte[]> q = queue(h, "states", Duration.ofSeconds(60));
    for (int i = 0; i < 2; i++) {
      q.enqueue(spec("d" + i).runAt(Instant.ofEpochMilli(1)).maxAttempts(1).build());
      Delivery<byte[]> d = q.claim(1, null).get(0);
      q.nack(d, Nack.retry("boom " + i));
    }
    for (int i = 0; i < 9; i++) {
      q.enqueue(spec("r" + i).runAt(Instant.ofEpochMilli(1_000 + i)).build());
    }
    List<Delivery<byte[]>> leased = q.claim(3, Duration.ofMinutes(5));
    assertThat(leased).hasSize(3);
    List<String> stillReady = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      stillReady.add("r" + i);
    }
    stillReady.removeAll(ids(leased.stream().map(Delivery::id).toList()));

    List<JobInfo<byte[]>> ready = all(q, JobState.READY, 2);
    assertThat(ready).extracting(JobInfo::id).containsExactlyElementsOf(stillReady);

    List<JobInfo<byte[]>> inflight = all(q, JobState.INFLIGHT, 2);
    assertThat(inflight)
        .extracting(JobInfo::id)
        .containsExactlyInAnyOrderElementsOf(ids(leased.stream().map(Delivery::id).toList()));
    assertThat(inflight).allSatisfy(j -> assertThat(j.leaseUntil()).isPresent());

    List<JobInfo<byte[]>> dead = all(q, JobState.DEAD, 1);
    assertThat(dead).extracting(JobInfo::id).containsExactly("d0", "d1");
    assertThat(dead).allSatisfy(j -> assertThat(j.diedAt()).isPresent());
    assertThat(dead.get(1).lastError()).contains("boom 1");
    assertThat(q.dead().list(null, 10).jobs()).extracting(JobInfo::id).containsExactly("d0", "d1");
  }

  @Test
  void aSlotJobWhoseTimeHasComeIsListedReadyWithoutAnyPromoter() {
    Hourglass h = manual();
    Queue<byte[]> q = queue(h, "clock", Duration.ofMillis(200));
    EnqueueResult r = q.enqueue(spec("soon").delay(Duration.ofSeconds(1)).build());
    assertThat(all(q, JobState.DELAYED, 10)).extracting(JobInfo::id).containsExactly("soon");

    awaitRedisClockPast(r.runAt());

    assertThat(all(q, JobState.DELAYED, 10)).isEmpty();
    assertThat(all(q, JobState.READY, 10)).extracting(JobInfo::id).containsExactly("soon");
  }

  @Test
  void aJobPlacedByAClientWhoseClockLagsIsStillOnTheRightPage() {
    Hourglass good = manual();
    Queue<byte[]> q =
        good.configureQueue(
            "skew", QueueSettings.builder().partitions(1).slotWidth(Duration.ofSeconds(1)).build());
    MovableClock clock = new MovableClock();
    Hourglass lagging = client(b -> b.backgroundPromoter(false).clock(clock));
    clock.advance(Duration.ofSeconds(-3)); // its estimate of the server clock lags by 3 s
    q.enqueue(spec("A").delay(Duration.ofMillis(60_500)).build());
    lagging.queue("skew").enqueue(spec("B").delay(Duration.ofMillis(61_500)).build());

    // The lagging client proposes a slot that starts 3 s before B is due: the script puts B in
    // near instead, so a page after A's cursor still finds it.
    assertThat(all(q, JobState.DELAYED, 1)).extracting(JobInfo::id).containsExactly("A", "B");
  }

  @Test
  void badLimitsAndCursorsAreRefused() {
    Queue<byte[]> q = manual().queue("bad");
    q.enqueue(job("a"));
    q.enqueue(job("b"));
    String cursor = q.jobs(JobState.READY, 1, null).next().orElseThrow();
    assertThatThrownBy(() -> q.jobs(JobState.READY, 0, null))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("limit");
    assertThatThrownBy(() -> q.jobs(JobState.READY, 1001, null))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> q.jobs(null, 10, null)).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> q.jobs(JobState.DEAD, 10, cursor))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("cursor");
    assertThatThrownBy(() -> q.jobs(JobState.READY, 10, "not-a-cursor"))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("cursor");
    assertThat(q.jobs(JobState.READY, 10, cursor).jobs())
        .extracting(JobInfo::id)
        .containsExactly("b");
  }

  @Test
  void dueWithinCountsDelayedJobsByHorizon() {
    Queue<byte[]> q = manual().queue("wave");
    q.enqueue(spec("now").delay(Duration.ZERO).build());
    q.enqueue(spec("s30").delay(Duration.ofSeconds(30)).build());
    q.enqueue(spec("m10").delay(Duration.ofMinutes(10)).build());
    q.enqueue(spec("m11").delay(Duration.ofMinutes(11)).build());
    q.enqueue(spec("h5").delay(Duration.ofHours(5)).build());
    q.enqueue(spec("d3").delay(Duration.ofDays(3)).build());
    assertThat(q.dueWithin(List.of(Duration.ofMinutes(1), Duration.ofHours(1), Duration.ofDays(1))))
        .containsExactly(1L, 3L, 4L);
    assertThatThrownBy(() -> q.dueWithin(List.of(Duration.ofHours(1), Duration.ofMinutes(1))))
        .isInstanceOf(InvalidArgumentException.class);
  }

  private static List<String> ids(List<?> items) {
    return items.stream().map(o -> o instanceof JobInfo<?> j ? j.id() : (String) o).toList();
  }
}
