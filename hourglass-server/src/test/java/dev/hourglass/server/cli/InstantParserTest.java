package dev.hourglass.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class InstantParserTest {

  @ParameterizedTest
  @CsvSource({
    "2026-11-21T10:00:00Z, 1795255200000",
    "2026-11-21T12:00:00+02:00, 1795255200000",
    "2026-11-21T10:00:00.250Z, 1795255200250",
    "1795255200000, 1795255200000",
    "0, 0"
  })
  void readsIsoAndEpochMillis(String text, long epochMillis) {
    assertThat(InstantParser.parse(text)).isEqualTo(Instant.ofEpochMilli(epochMillis));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "tomorrow", "2026-11-21", "2026-11-21T10:00:00", "-5", "1.5"})
  void refusesOtherText(String text) {
    assertThatThrownBy(() -> InstantParser.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not a time like 2026-11-21T10:00:00Z");
  }
}
