package dev.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ClusterOptionsTest {

  @Test
  void defaultsToFewerJobsUnderCallgrind() {
    assertThat(ClusterOptions.parse())
        .isEqualTo(new ClusterOptions(50_000, 2000, 5, false, false, 1));
    assertThat(ClusterOptions.parse("--colocate", "--callgrind", "--rounds", "3"))
        .isEqualTo(new ClusterOptions(10_000, 2000, 3, true, true, 1));
    assertThat(ClusterOptions.parse("--callgrind", "--jobs", "2000", "--systems", "hourglass"))
        .isEqualTo(new ClusterOptions(2000, 2000, 5, false, true, 1));
    ClusterOptions bigger = ClusterOptions.parse("--payload-bytes", "100");
    assertThat(bigger.payload()).hasSize(100).containsOnly('x');
    assertThat(bigger.describe()).endsWith("--rounds 5 --payload-bytes 100");
    assertThat(ClusterOptions.parse().payload()).containsExactly('x');
    assertThat(ClusterOptions.parse("--jobs", "100", "--max-delay-ms", "10").describe())
        .isEqualTo("--jobs 100 --max-delay-ms 10 --rounds 5");
    assertThat(ClusterOptions.parse("--colocate", "--callgrind").describe())
        .isEqualTo("--jobs 10000 --max-delay-ms 2000 --rounds 5 --colocate --callgrind");
  }

  @Test
  void refusesWhatItCannotRun() {
    assertThatThrownBy(() -> ClusterOptions.parse("--seconds", "3"))
        .hasMessage("unknown option --seconds");
    assertThatThrownBy(() -> ClusterOptions.parse("--rounds")).hasMessage("--rounds needs a value");
    assertThatThrownBy(() -> ClusterOptions.parse("--jobs", "0"))
        .hasMessage("--jobs must be a whole number of at least 1, was 0");
    assertThatThrownBy(() -> ClusterOptions.parse("--systems", "redisson"))
        .hasMessage("the cluster workload runs on hourglass only");
  }
}
