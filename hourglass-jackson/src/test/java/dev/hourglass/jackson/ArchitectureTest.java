package dev.hourglass.jackson;

import static dev.hourglass.testing.ArchitectureRules.mainClasses;
import static dev.hourglass.testing.ArchitectureRules.packagesFormNoCycle;
import static dev.hourglass.testing.ArchitectureRules.usesNoCoreInternals;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

/**
 * The arrows of hourglass-jackson: one package (both Jackson lines, and the codec they share as a
 * package-private class), so no package cycle; core's public API only.
 */
class ArchitectureTest {
  static final JavaClasses JACKSON = mainClasses("dev.hourglass.jackson");

  @Test
  void packagesAreFreeOfCycles() {
    packagesFormNoCycle().check(JACKSON);
  }

  @Test
  void usesNoInternalsOfCore() {
    usesNoCoreInternals().check(JACKSON);
  }
}
