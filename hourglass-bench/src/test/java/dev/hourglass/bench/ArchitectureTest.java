package dev.hourglass.bench;

import static dev.hourglass.testing.ArchitectureRules.mainClasses;
import static dev.hourglass.testing.ArchitectureRules.packagesFormNoCycle;
import static dev.hourglass.testing.ArchitectureRules.usesNoCoreInternals;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

/**
 * The harness measures Hourglass from outside: through the public API, and through core's test jar
 * ({@code dev.hourglass.keyspace}) for the layout it must mirror, never through core's internals.
 */
class ArchitectureTest {
  static final JavaClasses BENCH = mainClasses("dev.hourglass.bench", "dev.hourglass.migrate");

  @Test
  void theHarnessUsesNoInternals() {
    assertThat(BENCH.contain(Bench.class)).as("the harness's classes were imported").isTrue();
    usesNoCoreInternals().check(BENCH);
  }

  @Test
  void packagesAreFreeOfCycles() {
    packagesFormNoCycle().check(BENCH);
  }
}
