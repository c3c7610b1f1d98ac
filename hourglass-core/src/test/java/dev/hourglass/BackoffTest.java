package dev.hourglass;

import static java.time.Duration.ofHours;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BackoffTest {
  @Test
  void fixedIsConstant() {
    Backoff b = Backoff.fixed(ofSeconds(5));
    assertThat(b.delayAfter(1, 0.9)).isEqualTo(ofSeconds(5));
    assertThat(b.delayAfter(50, 0.1)).isEqualTo(ofSeconds(5));
  }

  @Test
  void exponentialDoublesUpToTheCap() {
    Backoff b = Backoff.exponential(ofSeconds(1), ofSeconds(10));
    assertThat(b.delayAfter(1, 0.5)).isEqualTo(ofSeconds(1));
    assertThat(b.delayAfter(2, 0.5)).isEqualTo(ofSeconds(2));
    assertThat(b.delayAfter(4, 0.5)).isEqualTo(ofSeconds(8));
    assertThat(b.delayAfter(5, 0.5)).isEqualTo(ofSeconds(10));
    assertThat(b.delayAfter(900, 0.5)).isEqualTo(ofSeconds(10));
  }

  @Test
  void jitterOnlyShortensAndStaysWithinItsFraction() {
    Backoff b = Backoff.exponential(ofSeconds(10), ofSeconds(10), 0.2);
    assertThat(b.delayAfter(1, 0.0)).isEqualTo(ofSeconds(10));
    assertThat(b.delayAfter(1, 0.5)).isEqualTo(ofSeconds(9));
    assertThat(b.delayAfter(1, 0.999)).isBetween(ofMillis(8000), ofMillis(8010));
  }

  @Test
  void scheduleStepsThenRepeatsTheLast() {
    Backoff b = Backoff.parseSchedule("15s 3m 10m 30m 30m 1h 2h 6h 15h");
    assertThat(b.delayAfter(1, 0)).isEqualTo(ofSeconds(15));
    assertThat(b.delayAfter(2, 0)).isEqualTo(ofMinutes(3));
    assertThat(b.delayAfter(9, 0)).isEqualTo(ofHours(15));
    assertThat(b.delayAfter(20, 0)).isEqualTo(ofHours(15));
    assertThat(Backoff.parseSchedule("500ms,2d"))
        .isEqualTo(Backoff.schedule(ofMillis(500), java.time.Duration.ofDays(2)));
  }
}
