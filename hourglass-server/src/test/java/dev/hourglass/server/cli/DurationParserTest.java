package dev.hourglass.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.TypeConversionException;

class DurationParserTest {

  @ParameterizedTest
  @CsvSource({
    "1500ms, 1500",
    "1500, 1500",
    "0, 0",
    "0s, 0",
    "30s, 30000",
    "5m, 300000",
    "2h, 7200000",
    "1d, 86400000",
    "' 30S ', 30000",
    "999999999999999ms, 999999999999999"
  })
  void readsEveryUnitAndPlainMilliseconds(String text, long millis) {
    assertThat(DurationParser.parse(text)).isEqualTo(Duration.ofMillis(millis));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "-5s", "1.5s", "5 s", "5sec", "s", "5w", "PT5S", "1e3"})
  void refusesWhatIsNotADuration(String text) {
    assertThatThrownBy(() -> DurationParser.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not a duration like 1500ms, 30s, 5m, 2h, 1d");
  }

  @Test
  void refusesADurationWhoseMillisecondsOverflow() {
    assertThatThrownBy(() -> DurationParser.parse("999999999999999d"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("too long");
  }

  @Test
  void picocliConversionFailsAsAUsageError() {
    assertThatThrownBy(() -> new DurationParser().convert("soon"))
        .isInstanceOf(TypeConversionException.class)
        .hasMessageContaining("'soon' is not a duration");
  }
}
