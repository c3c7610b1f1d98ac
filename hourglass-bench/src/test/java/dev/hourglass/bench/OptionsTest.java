package dev.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OptionsTest {

  @Test
  void parsesValuesInBothForms() throws Exception {
    Options o =
        Options.parse(
            "e2e", "--jobs", "1_000", "--consumers=8", "--systems", "redisson", "--seed", "-3");
    assertThat(o.workload()).isEqualTo("e2e");
    assertThat(o.jobs(5)).isEqualTo(1000);
    assertThat(o.consumers(4)).isEqualTo(8);
    assertThat(o.systems()).containsExactly("redisson");
    assertThat(o.seed()).isEqualTo(-3);
    assertThat(o.payloadBytes()).isEqualTo(120);
    assertThat(Workload.named("e2e").warmupRounds(o)).isEqualTo(1);
    assertThat(Workload.named("enqueue").warmupRounds(Options.parse("enqueue"))).isEqualTo(5);
    assertThat(
            Workload.named("enqueue")
                .warmupRounds(Options.parse("enqueue", "--warmup-rounds", "2")))
        .isEqualTo(2);
    assertThat(Options.parse("e2e", "--warmup-rounds", "3").warmupRounds(1)).isEqualTo(3);
  }

  @Test
  void httpEnqueueRunsTheServerThenTheLibrary() throws Exception {
    Options o = Options.parse("http-enqueue");
    assertThat(o.systems()).containsExactly("hourglass-http", "hourglass");
    assertThat(o.connections(64)).isEqualTo(64);
    assertThat(o.seconds(20)).isEqualTo(20);
    assertThat(Workload.named("http-enqueue").warmupRounds(o)).isEqualTo(4);
    assertThat(Workload.named("http-enqueue").ratioSystems())
        .containsExactly("hourglass-http", "hourglass");
    Options given = Options.parse("http-enqueue", "--connections", "16", "--seconds", "5");
    assertThat(given.connections(64)).isEqualTo(16);
    assertThat(given.seconds(20)).isEqualTo(5);
    assertThatThrownBy(() -> Options.parse("http-enqueue", "--connections", "0"))
        .hasMessageContaining("between");
  }

  @Test
  void delaysFollowTheOneGiven() throws Exception {
    assertThat(Options.parse("e2e").delays(1000, 3000)).isEqualTo(new Options.Delays(1000, 3000));
    assertThat(Options.parse("e2e", "--min-delay-ms", "0", "--max-delay-ms", "0").delays(1, 3))
        .isEqualTo(new Options.Delays(0, 0));
    assertThat(Options.parse("e2e", "--max-delay-ms", "0").delays(1000, 3000))
        .isEqualTo(new Options.Delays(0, 0));
    assertThat(Options.parse("e2e", "--min-delay-ms", "5000").delays(1000, 3000))
        .isEqualTo(new Options.Delays(5000, 5000));
  }

  @Test
  void refusesBadCommandLines() {
    assertThatThrownBy(() -> Options.parse()).hasMessageContaining("no workload");
    assertThatThrownBy(() -> Options.parse("nope")).hasMessageContaining("unknown workload");
    assertThatThrownBy(() -> Options.parse("e2e", "--bogus", "1"))
        .isInstanceOf(Options.UsageException.class)
        .hasMessageContaining("unknown option --bogus");
    assertThatThrownBy(() -> Options.parse("e2e", "--jobs")).hasMessageContaining("needs a value");
    assertThatThrownBy(() -> Options.parse("e2e", "--jobs", "ten"))
        .hasMessageContaining("whole number");
    assertThatThrownBy(() -> Options.parse("e2e", "--jobs", "0")).hasMessageContaining("between");
    assertThatThrownBy(() -> Options.parse("e2e", "--warmup-rounds", "101"))
        .hasMessageContaining("between");
    assertThatThrownBy(() -> Options.parse("e2e", "--payload-bytes", "8"))
        .hasMessageContaining("between 12");
    assertThatThrownBy(() -> Options.parse("e2e", "--systems", "hourglass,bull"))
        .hasMessageContaining("unknown system 'bull'");
    assertThatThrownBy(() -> Options.parse("e2e", "--min-delay-ms", "9", "--max-delay-ms", "1"))
        .hasMessageContaining("above");
    assertThatThrownBy(() -> Options.parse("e2e", "--redis", "localhost:6379"))
        .hasMessageContaining("redis://");
    assertThatThrownBy(() -> Options.parse("e2e", "idle")).hasMessageContaining("unexpected");
  }

  @Test
  void helpNeedsNothingElse() throws Exception {
    assertThat(Options.parse("--help").help()).isTrue();
  }
}
