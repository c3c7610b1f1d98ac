package dev.hourglass.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.TypeConversionException;

class BackoffSpecTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "fixed:5s               | {\"type\":\"fixed\",\"delayMs\":5000}",
        "fixed:0                | {\"type\":\"fixed\",\"delayMs\":0}",
        "exponential:1s:1h      | {\"type\":\"exponential\",\"baseMs\":1000,\"maxMs\":3600000}",
        "EXPONENTIAL:500ms:500  | {\"type\":\"exponential\",\"baseMs\":500,\"maxMs\":500}",
        "schedule:15s,3m,10m    | {\"type\":\"schedule\",\"delaysMs\":[15000,180000,600000]}",
        "schedule:15s, 3m       | {\"type\":\"schedule\",\"delaysMs\":[15000,180000]}",
        "schedule:1d            | {\"type\":\"schedule\",\"delaysMs\":[86400000]}"
      })
  void writesEachFormAsTheApiBackoffObject(String spec, String json) {
    assertThat(Json.write(BackoffSpec.toJson(BackoffSpec.parse(spec)))).isEqualTo(json);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "fixed",
        "fixed:",
        "fixed:5s:1m",
        "exponential:1s",
        "exponential:1s:1h:2h",
        "linear:5s",
        "schedule:",
        "schedule:15s,,3m",
        "schedule:15s 3m",
        "fixed:-5s",
        "fixed:soon"
      })
  void refusesMalformedSpecs(String spec) {
    assertThatThrownBy(() -> BackoffSpec.parse(spec)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void appliesTheCoreRules() {
    assertThatThrownBy(() -> BackoffSpec.parse("exponential:1h:1s"))
        .hasMessageContaining("backoff.max: must not be shorter than backoff.base");
    assertThatThrownBy(() -> BackoffSpec.parse("exponential:0:1s"))
        .hasMessageContaining("backoff.base: must be positive");
    assertThatThrownBy(() -> BackoffSpec.parse("fixed:60d"))
        .hasMessageContaining("backoff.delay: must be between 0 and");
  }

  @Test
  void saysWhichFormsExistWhenTheTypeIsUnknown() {
    assertThatThrownBy(() -> new BackoffSpec().convert("linear:5s"))
        .isInstanceOf(TypeConversionException.class)
        .hasMessage(
            "'linear:5s' is not a backoff like fixed:5s, exponential:1s:1h (base:max) or"
                + " schedule:15s,3m,10m");
  }
}
