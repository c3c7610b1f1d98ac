package dev.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.InvalidArgumentException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Occurrence times of schedules, computed from a given instant (the clock is the caller's):
 * daylight saving days of Europe/Berlin in 2026 (spring forward on 29 March, 02:00 to 03:00; fall
 * back on 25 October, 03:00 to 02:00).
 */
class ScheduleTimesTest {
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  private static ScheduleTimes cron(String expression, ZoneId zone) {
    return ScheduleTimes.of(
        new ScheduleDefinition(
            expression, zone.getId(), 0, 0, null, null, null, null, null, null, null, new byte[0]));
  }

  private static long berlin(String local) {
    return LocalDateTime.parse(local).atZone(BERLIN).toInstant().toEpochMilli();
  }

  private static List<ZonedDateTime> inBerlin(List<Long> times) {
    return times.stream().map(t -> Instant.ofEpochMilli(t).atZone(BERLIN)).toList();
  }

  @Test
  void springForwardSkipsTheWallClockTimeThatDoesNotExistAndKeepsTheNextDays() {
    List<Long> times = cron("30 2 * * *", BERLIN).after(berlin("2026-03-27T12:00")).times();
    List<ZonedDateTime> local = inBerlin(times);
    assertThat(local.get(0).toLocalDateTime()).isEqualTo(LocalDateTime.parse("2026-03-28T02:30"));
    // 29 March has no 02:30 (the clocks jump from 02:00 to 03:00): no occurrence that day, as
    // cron-utils computes it; the next is 30 March, 47 hours later (a day of 23 hours between)
    assertThat(local.get(1).toLocalDateTime()).isEqualTo(LocalDateTime.parse("2026-03-30T02:30"));
    assertThat(times.get(1) - times.get(0)).isEqualTo(47 * 3_600_000L);
    assertThat(local.get(2).toLocalDateTime()).isEqualTo(LocalDateTime.parse("2026-03-31T02:30"));
    for (int i = 1; i < times.size(); i++) {
      assertThat(times.get(i)).isGreaterThan(times.get(i - 1));
    }
  }

  @Test
  void fallBackRunsTheRepeatedWallClockTimeOnce() {
    List<Long> times = cron("30 2 * * *", BERLIN).after(berlin("2026-10-24T12:00")).times();
    List<ZonedDateTime> local = inBerlin(times);
    assertThat(local.get(0).toLocalDateTime()).isEqualTo(LocalDateTime.parse("2026-10-25T02:30"));
    assertThat(local.get(1).toLocalDateTime()).isEqualTo(LocalDateTime.parse("2026-10-26T02:30"));
    assertThat(times.get(1) - times.get(0)).isEqualTo(25 * 3_600_000L); // a day of 25 hours
  }

  @Test
  void fromInsideTheRepeatedHourTheNextIsTheNextDay() {
    // 02:45 of the second pass through 02:00-03:00 (after the clocks went back)
    long secondPass =
        ZonedDateTime.of(LocalDateTime.parse("2026-10-25T02:45"), BERLIN)
            .withLaterOffsetAtOverlap()
            .toInstant()
            .toEpochMilli();
    List<Long> times = cron("30 2 * * *", BERLIN).after(secondPass).times();
    assertThat(inBerlin(times).get(0).toLocalDateTime())
        .isEqualTo(LocalDateTime.parse("2026-10-26T02:30"));
  }

  @Test
  void anIntervalCountsFromItsAnchorAndStopsAtItsEnd() {
    ScheduleTimes every =
        ScheduleTimes.of(
            new ScheduleDefinition(
                null,
                "UTC",
                1000,
                10_000,
                10_000L,
                13_000L,
                null,
                null,
                null,
                null,
                null,
                new byte[0]));
    ScheduleTimes.Upcoming up = every.after(0);
    assertThat(up.times()).containsExactly(10_000L, 11_000L, 12_000L, 13_000L);
    assertThat(up.complete()).isTrue();
    assertThat(every.after(11_500).times()).containsExactly(12_000L, 13_000L);
    ScheduleTimes open =
        ScheduleTimes.of(
            new ScheduleDefinition(
                null, "UTC", 1000, 500, null, null, null, null, null, null, null, new byte[0]));
    ScheduleTimes.Upcoming many = open.after(2_000);
    assertThat(many.complete()).isFalse();
    assertThat(many.times()).hasSize(ScheduleTimes.AHEAD).startsWith(2_500L, 3_500L);
  }

  @Test
  void badCronExpressionsNameTheField() {
    for (String bad : new String[] {"", "* * * *", "60 * * * *", "* * * * * *", "bad"}) {
      assertThatThrownBy(() -> ScheduleTimes.parseCron(bad))
          .isInstanceOfSatisfying(
              InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("cron"));
    }
  }
}
