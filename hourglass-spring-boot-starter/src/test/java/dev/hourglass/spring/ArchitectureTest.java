package dev.hourglass.spring;

import static dev.hourglass.testing.ArchitectureRules.mainClasses;
import static dev.hourglass.testing.ArchitectureRules.packagesFormNoCycle;
import static dev.hourglass.testing.ArchitectureRules.usesNoCoreInternals;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

/** The arrows of the Spring Boot starter: no package cycle, core's public API only. */
class ArchitectureTest {
  static final JavaClasses STARTER = mainClasses("dev.hourglass.spring");

  @Test
  void packagesAreFreeOfCycles() {
    packagesFormNoCycle().check(STARTER);
  }

  @Test
  void usesNoInternalsOfCore() {
    usesNoCoreInternals().check(STARTER);
  }
}
