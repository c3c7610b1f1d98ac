package dev.hourglass.forward;

import static dev.hourglass.testing.ArchitectureRules.mainClasses;
import static dev.hourglass.testing.ArchitectureRules.onlyTheEntryPointsReachInto;
import static dev.hourglass.testing.ArchitectureRules.packagesFormNoCycleBut;
import static dev.hourglass.testing.ArchitectureRules.usesNoCoreInternals;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

/**
 * The arrows of hourglass-forward: no package cycle but its entry point's edge into its internals,
 * core's public API only.
 */
class ArchitectureTest {
  static final String INTERNAL = "dev.hourglass.forward.internal";
  static final JavaClasses FORWARD = mainClasses("dev.hourglass.forward");

  @Test
  void packagesAreFreeOfCyclesButTheEntryPointsEdge() {
    // Forwarder starts the loop, which reads the API's targets and options.
    packagesFormNoCycleBut(INTERNAL, Forwarder.class).check(FORWARD);
  }

  @Test
  void onlyTheEntryPointReachesIntoTheInternals() {
    onlyTheEntryPointsReachInto(INTERNAL, "dev.hourglass.forward", Forwarder.class).check(FORWARD);
  }

  @Test
  void usesNoInternalsOfCore() {
    usesNoCoreInternals().check(FORWARD);
  }
}
