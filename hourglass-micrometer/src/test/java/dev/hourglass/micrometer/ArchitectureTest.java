package dev.hourglass.micrometer;

import static dev.hourglass.testing.ArchitectureRules.mainClasses;
import static dev.hourglass.testing.ArchitectureRules.packagesFormNoCycle;
import static dev.hourglass.testing.ArchitectureRules.usesNoCoreInternals;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

/** The arrows of hourglass-micrometer: no package cycle, core's public API only. */
class ArchitectureTest {
  static final JavaClasses MICROMETER = mainClasses("dev.hourglass.micrometer");

  @Test
  void packagesAreFreeOfCycles() {
    packagesFormNoCycle().check(MICROMETER);
  }

  @Test
  void usesNoInternalsOfCore() {
    usesNoCoreInternals().check(MICROMETER);
  }
}
