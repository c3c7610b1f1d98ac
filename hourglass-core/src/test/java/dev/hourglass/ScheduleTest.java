package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Schedules (recurring jobs), in a real Redis: ids, times, at most one pending occurrence. */
class ScheduleTest extends HourglassTestBase {

  private static ScheduleSpec<String> everySecond(String id, String payload) {
    return ScheduleSpec.every(id, Duration.ofSeconds(1), payload).build();
  }

  /** The pending jobs (delayed or ready) of a queue. */
  private static long pending(Queue<?> q) {
    QueueStats s = q.stats();
    return s.delayed() + s.ready();
  }

  @Test
  void anIntervalScheduleDeliversOneOccurrenceAfterAnotherWithItsIdAndTime() {
    Hourglass h = live();
    Queue<String> q = h.queue("tick", String.class);
    Schedules.PutResult<String> put = q.schedules().put(everySecond("beat", "hello"));
    assertThat(put.created()).isTrue();
    ScheduleInfo<String> info = put.schedule();
    assertThat(info.every()).contains(Duration.ofSeconds(1));
    assertThat(info.cron()).isEmpty();
    assertThat(info.paused()).isFalse();
    assertThat(info.payload().value()).isEqualTo("hello");
    assertThat(info.nextRuns()).hasSize(3);
    Instant first = info.nextRuns().get(0);
    assertThat(info.nextRuns().get(1)).isEqualTo(first.plusSeconds(1));
    assertThat(info.nextRuns().get(2)).isEqualTo(first.plusSeconds(2));

    String firstId = "beat:" + first.toEpochMilli();
    JobInfo<String> job = q.get(firstId).orElseThrow();
    assertThat(job.runAt()).isEqualTo(first);
    assertThat(job.schedule()).contains("beat");
    assertThat(job.payload().value()).isEqualTo("hello");
    assertThat(pending(q)).isEqualTo(1);

    List<Long> times = new ArrayList<>();
    while (times.size() < 3) {
      for (Delivery<String> d : q.claim(1, null, Duration.ofSeconds(10))) {
        assertThat(d.schedule()).contains("beat");
        assertThat(d.payload().value()).isEqualTo("hello");
        long t = Long.parseLong(d.id().substring("beat:".length()));
        assertThat(d.dueAt().toEpochMilli()).isEqualTo(t);
        assertThat(pending(q)).isEqualTo(1); // the next was enqueued by the claim itself
        times.add(t);
        q.ack(d);
      }
    }
    assertThat(times.get(0)).isEqualTo(first.toEpochMilli());
    assertThat(q.stats().counters().occurrences()).isEqualTo(4); // three delivered, one pending
    for (int i = 1; i < times.size(); i++) {
      assertThat(times.get(i) - times.get(i - 1)).isPositive();
      assertThat((times.get(i) - first.toEpochMilli()) % 1000).isZero();
    }
  }

  @Test
  void aCronScheduleListsTheNextRunsOfItsZone() {
    Hourglass h = manual();
    Queue<String> q = h.queue("cron", String.class);
    ScheduleInfo<String> info =
        q.schedules()
            .put(
                ScheduleSpec.cron("nightly", "30 2 * * *", ZoneId.of("Europe/Berlin"), "run")
                    .maxAttempts(3)
                    .priority(5)
                    .build())
            .schedule();
    assertThat(info.cron()).contains("30 2 * * *");
    assertThat(info.timeZone()).isEqualTo(ZoneId.of("Europe/Berlin"));
    assertThat(info.maxAttempts()).contains(3);
    assertThat(info.priority()).contains(5);
    assertThat(info.nextRuns()).hasSize(3);
    for (Instant run : info.nextRuns()) {
      var local = run.atZone(ZoneId.of("Europe/Berlin")).toLocalTime();
      assertThat(local.getHour() * 60 + local.getMinute()).isIn(150, 210); // 02:30, or 03:30 on
      // the day of spring forward
    }
    JobInfo<String> pending =
        q.get("nightly:" + info.nextRuns().get(0).toEpochMilli()).orElseThrow();
    assertThat(pending.maxAttempts()).isEqualTo(3);
    assertThat(pending.schedule()).contains("nightly");
    assertThat(q.schedules().get("nightly")).map(ScheduleInfo::id).contains("nightly");
    assertThat(q.schedules().list()).extracting(ScheduleInfo::id).containsExactly("nightly");
  }

  @Test
  void cancellingTheOccurrenceSkipsJustThatOne() {
    Hourglass h = manual();
    Queue<String> q = h.queue("skip", String.class);
    ScheduleInfo<String> info = q.schedules().put(everySecond("s", "x")).schedule();
    long first = info.nextRuns().get(0).toEpochMilli();

    assertThat(q.cancel("s:" + first)).isTrue();

    ScheduleInfo<String> after = q.schedules().get("s").orElseThrow();
    long next = after.nextRuns().get(0).toEpochMilli();
    assertThat(next).isGreaterThan(first);
    assertThat(q.get("s:" + next)).isPresent();
    assertThat(pending(q)).isEqualTo(1);
  }

  @Test
  void aPausedScheduleHasNoPendingOccurrenceUntilResumed() {
    Hourglass h = manual();
    Queue<String> q = h.queue("pause", String.class);
    long first =
        q.schedules().put(everySecond("s", "x")).schedule().nextRuns().get(0).toEpochMilli();

    ScheduleInfo<String> paused = q.schedules().pause("s");
    assertThat(paused.paused()).isTrue();
    assertThat(pending(q)).isZero();
    assertThat(q.get("s:" + first)).isEmpty();
    assertThat(q.schedules().pause("s").paused()).isTrue(); // twice changes nothing

    Instant resumedAt = redisNow();
    ScheduleInfo<String> resumed = q.schedules().resume("s");
    assertThat(resumed.paused()).isFalse();
    assertThat(pending(q)).isEqualTo(1);
    assertThat(resumed.nextRuns().get(0)).isAfter(resumedAt);
    assertThat(q.get("s:" + resumed.nextRuns().get(0).toEpochMilli())).isPresent();

    assertThatThrownBy(() -> q.schedules().pause("none"))
        .isInstanceOf(ScheduleNotFoundException.class);
    assertThatThrownBy(() -> q.schedules().resume("none"))
        .isInstanceOf(ScheduleNotFoundException.class);
  }

  @Test
  void deletingAScheduleRemovesItsPendingOccurrenceAndLetsADeliveredOneFinish() {
    Hourglass h = live();
    Queue<String> q = h.queue("del", String.class);
    q.schedules().put(everySecond("s", "x"));
    List<Delivery<String>> got = new ArrayList<>();
    await().atMost(Duration.ofSeconds(30)).until(() -> got.addAll(q.claim(1, null)));
    assertThat(pending(q)).isEqualTo(1);

    assertThat(q.schedules().delete("s")).isTrue();

    assertThat(pending(q)).isZero();
    assertThat(q.schedules().get("s")).isEmpty();
    assertThat(q.schedules().list()).isEmpty();
    assertThat(q.schedules().delete("s")).isFalse();
    q.ack(got.get(0)); // the delivered occurrence finishes normally
    assertThat(q.stats().inflight()).isZero();
  }

  @Test
  void aPutWithTheSameTimingKeepsTheOccurrenceAndGivesItTheNewDefinition() {
    Hourglass h = manual();
    Queue<String> q = h.queue("upsert", String.class);
    ScheduleInfo<String> a = q.schedules().put(everySecond("s", "one")).schedule();
    long first = a.nextRuns().get(0).toEpochMilli();

    Schedules.PutResult<String> b =
        q.schedules()
            .put(ScheduleSpec.every("s", Duration.ofSeconds(1), "two").maxAttempts(7).build());

    assertThat(b.created()).isFalse();
    assertThat(b.schedule().nextRuns().get(0).toEpochMilli()).isEqualTo(first);
    JobInfo<String> job = q.get("s:" + first).orElseThrow();
    assertThat(job.payload().value()).isEqualTo("two");
    assertThat(job.maxAttempts()).isEqualTo(7);
    assertThat(pending(q)).isEqualTo(1);

    ScheduleInfo<String> c =
        q.schedules()
            .put(ScheduleSpec.every("s", Duration.ofSeconds(5), "three").build())
            .schedule();
    assertThat(c.every()).contains(Duration.ofSeconds(5));
    assertThat(pending(q)).isEqualTo(1);
    assertThat(q.get("s:" + c.nextRuns().get(0).toEpochMilli())).isPresent();
    assertThat(q.schedules().list()).hasSize(1);
  }

  @Test
  void invalidSchedulesAreRefusedNamingTheFieldAndWriteNothing() {
    Hourglass h = manual();
    Queue<String> q = h.queue("bad", String.class);
    assertField(
        () ->
            q.schedules().put(ScheduleSpec.cron("s", "61 * * * *", ZoneId.of("UTC"), "x").build()),
        "cron");
    assertField(
        () -> q.schedules().put(ScheduleSpec.cron("s", "* * * *", ZoneId.of("UTC"), "x").build()),
        "cron");
    assertField(
        () -> q.schedules().put(ScheduleSpec.every("s", Duration.ofMillis(999), "x").build()),
        "every");
    assertField(
        () ->
            q.schedules()
                .put(
                    ScheduleSpec.every("s", Duration.ofSeconds(1), "x")
                        .startAt(Instant.ofEpochMilli(2000))
                        .endAt(Instant.ofEpochMilli(1000))
                        .build()),
        "endAt");
    assertField(() -> q.schedules().put(everySecond("a:b", "x")), "id");
    assertField(
        () ->
            q.schedules()
                .put(ScheduleSpec.every("s", Duration.ofSeconds(1), "x").priority(10).build()),
        "priority");
    assertThat(q.schedules().list()).isEmpty();
    assertThat(pending(q)).isZero();
  }

  private static void assertField(Runnable r, String field) {
    assertThatThrownBy(r::run)
        .isInstanceOfSatisfying(
            InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo(field));
  }

  @Test
  void deletingAQueueDeletesItsSchedules() {
    Hourglass h = manual();
    Queue<String> q = h.queue("gone", String.class);
    q.schedules().put(everySecond("s", "x"));
    q.deleteWithJobs();
    Queue<String> again = h.queue("gone", String.class);
    assertThat(again.schedules().list()).isEmpty();
    assertThat(again.schedules().get("s")).isEqualTo(Optional.empty());
  }

  /** Whether an occurrence lives in another partition than its own id hashes to. */
  private static boolean elsewhere(String occurrenceId, int partitions) {
    String schedule = occurrenceId.substring(0, occurrenceId.lastIndexOf(':'));
    return dev.hourglass.internal.store.Keys.partitionOf(occurrenceId, partitions)
        != dev.hourglass.internal.store.Keys.partitionOf(schedule, partitions);
  }

  @Test
  void anOccurrenceInAnotherPartitionThanItsIdIsFoundByIdCancelledAndAcked() {
    Hourglass h = live();
    Queue<byte[]> q = h.configureQueue("parts", QueueSettings.builder().partitions(4).build());
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      ScheduleInfo<byte[]> s =
          q.schedules()
              .put(ScheduleSpec.every("s" + i, Duration.ofSeconds(1), new byte[] {1}).build())
              .schedule();
      ids.add("s" + i + ":" + s.nextRuns().get(0).toEpochMilli());
    }
    for (String id : ids) {
      assertThat(q.get(id)).isPresent();
    }
    String away = ids.stream().filter(id -> elsewhere(id, 4)).findFirst().orElseThrow();
    assertThat(q.cancel(away)).isTrue();
    assertThat(q.get(away)).isEmpty();

    // deliveries of occurrences stored away from their id's partition are acked by id
    List<String> acked = new ArrayList<>();
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> {
              for (Delivery<byte[]> d : q.claim(10, null)) {
                q.ack(d.id(), d.receipt());
                if (elsewhere(d.id(), 4)) {
                  acked.add(d.id());
                }
              }
              return acked.size() >= 2;
            });
    assertThat(q.stats().inflight()).isZero();
  }
}
