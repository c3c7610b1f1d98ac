package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bounds of a job's due time, the one rule for runAt that the HTTP API applies too (its
 * ContractRunAtTest).
 */
class JobSpecTest {
  private static JobSpec.Builder spec() {
    return JobSpec.builder().payload("1");
  }

  @ParameterizedTest
  @ValueSource(longs = {0, 1_767_225_600_000L, (1L << 47) - 1})
  void aRunAtFromMinToMaxRunAtIsKept(long epochMs) {
    Instant runAt = Instant.ofEpochMilli(epochMs);

    assertThat(spec().runAt(runAt).build().runAt()).contains(runAt);
    assertThat(JobSpec.MIN_RUN_AT.toEpochMilli()).isZero();
    assertThat(JobSpec.MAX_RUN_AT.toEpochMilli()).isEqualTo((1L << 47) - 1);
  }

  @ParameterizedTest
  @ValueSource(longs = {-1, 1L << 47, Long.MIN_VALUE, Long.MAX_VALUE})
  void aRunAtOutsideIsRefusedNamingTheRange(long epochMs) {
    Instant runAt = Instant.ofEpochMilli(epochMs);

    assertThatThrownBy(() -> spec().runAt(runAt).build())
        .isInstanceOf(InvalidArgumentException.class)
        .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo("runAt"))
        .hasMessage(
            "runAt: must be from 1970-01-01T00:00:00Z to 6429-10-17T02:45:55.327Z"
                + " (epoch ms 0 to 140737488355327), was "
                + runAt);
  }

  @ParameterizedTest
  @ValueSource(strings = {"-1000000000-01-01T00:00:00Z", "+1000000000-12-31T23:59:59Z"})
  void instantsNoEpochMillisHoldAreRefusedToo(String instant) {
    Instant runAt = Instant.parse(instant);

    assertThatThrownBy(() -> spec().runAt(runAt).build())
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageStartingWith("runAt: must be from ");
  }

  @ParameterizedTest
  @ValueSource(longs = {0, 3_153_600_000_000L})
  void aDelayUpToMaxDelayIsKept(long ms) {
    assertThat(spec().delay(Duration.ofMillis(ms)).build().delay()).contains(Duration.ofMillis(ms));
    assertThat(JobSpec.MAX_DELAY.toMillis()).isEqualTo(3_153_600_000_000L);
  }

  @ParameterizedTest
  @ValueSource(longs = {3_153_600_000_001L, Long.MAX_VALUE})
  void aDelayOverMaxDelayIsRefused(long ms) {
    assertThatThrownBy(() -> spec().delay(Duration.ofMillis(ms)).build())
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageStartingWith("delay: must be at most 100 years (3153600000000 ms)");
  }
}
