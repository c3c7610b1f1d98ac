package dev.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SoakOptionsTest {

  @Test
  void takesMinutesSeedAndATopology() {
    assertThat(SoakOptions.parse("--minutes", "0.5", "--seed", "-4", "--topology", "standalone"))
        .containsEntry("minutes", "0.5")
        .containsEntry("seed", "-4");
    assertThat(SoakOptions.parse("--help")).containsKey("help");
    assertThat(SoakOptions.parse("--minutes", "1", "--seed", "1", "--topology", "sentinel"))
        .containsEntry("topology", "sentinel");
    assertThat(SoakOptions.parse("--minutes", "1", "--seed", "1", "--topology", "cluster"))
        .containsEntry("topology", "cluster");
  }

  @Test
  void refusesWhatItCannotRun() {
    assertThatThrownBy(() -> SoakOptions.parse("--minutes", "2")).hasMessage("--seed is required");
    assertThatThrownBy(() -> SoakOptions.parse("--minutes", "2", "--seed", "1", "--jobs", "3"))
        .hasMessage("unknown option --jobs");
    assertThatThrownBy(() -> SoakOptions.parse("--minutes", "0", "--seed", "1"))
        .hasMessage("--minutes must be above 0");
    assertThatThrownBy(() -> SoakOptions.parse("--minutes", "1", "--seed", "x"))
        .hasMessageStartingWith("not a number");
    assertThatThrownBy(
            () -> SoakOptions.parse("--minutes", "1", "--seed", "1", "--topology", "ring"))
        .hasMessage("--topology ring: one of standalone, sentinel, cluster");
    assertThatThrownBy(() -> SoakOptions.parse("--minutes", "1", "--seed", "1", "--aof", "no"))
        .hasMessage("--aof takes always or off");
    assertThatThrownBy(() -> SoakOptions.parse("--minutes", "1", "--seed", "1", "--consumers", "1"))
        .hasMessage("--consumers must be at least 2");
  }
}
