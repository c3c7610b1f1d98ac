package dev.hourglass.archive;

import static dev.hourglass.testing.ArchitectureRules.mainClasses;
import static dev.hourglass.testing.ArchitectureRules.packagesFormNoCycle;
import static dev.hourglass.testing.ArchitectureRules.usesNoCoreInternals;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

/** The arrows of hourglass-archive: no package cycle, core's public API only. */
class ArchitectureTest {
  static final JavaClasses ARCHIVE = mainClasses("dev.hourglass.archive");

  @Test
  void packagesAreFreeOfCycles() {
    packagesFormNoCycle().check(ARCHIVE);
  }

  @Test
  void usesNoInternalsOfCore() {
    usesNoCoreInternals().check(ARCHIVE);
  }
}
