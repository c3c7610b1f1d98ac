package dev.hourglass.forward;

import static dev.hourglass.testing.ArchitectureRules.mainClasses;
import static dev.hourglass.testing.ArchitectureRules.packagesFormNoCycle;
import static dev.hourglass.testing.ArchitectureRules.usesNoCoreInternals;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

/**
 * The arrows of hourglass-forward: one package (the loop, the publishers and the failure texts are
 * package-private beside the API), so no package cycle; core's public API only.
 */
class ArchitectureTest {
  static final JavaClasses FORWARD = mainClasses("dev.hourglass.forward");

  @Test
  void packagesAreFreeOfCycles() {
    packagesFormNoCycle().check(FORWARD);
  }

  @Test
  void usesNoInternalsOfCore() {
    usesNoCoreInternals().check(FORWARD);
  }
}
