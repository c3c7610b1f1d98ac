package dev.hourglass.testing;

import static dev.hourglass.testing.ArchitectureRules.mainClasses;
import static dev.hourglass.testing.ArchitectureRules.packagesFormNoCycle;
import static dev.hourglass.testing.ArchitectureRules.usesNoCoreInternals;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.hourglass.testing.topology.RedisCluster;
import org.junit.jupiter.api.Test;

/** The arrows of hourglass-testing: no package cycle, nothing of core's internals. */
class ArchitectureTest {
  static final JavaClasses TESTING = mainClasses("dev.hourglass.testing");

  @Test
  void packagesAreFreeOfCycles() {
    assertThat(TESTING.contain(RedisCluster.class)).as("the fixtures were imported").isTrue();
    packagesFormNoCycle().check(TESTING);
  }

  @Test
  void usesNoInternalsOfCore() {
    usesNoCoreInternals().check(TESTING);
  }
}
