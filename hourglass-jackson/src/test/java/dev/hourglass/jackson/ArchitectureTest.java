package dev.hourglass.jackson;

import static dev.hourglass.testing.ArchitectureRules.mainClasses;
import static dev.hourglass.testing.ArchitectureRules.onlyTheEntryPointsReachInto;
import static dev.hourglass.testing.ArchitectureRules.packagesFormNoCycleBut;
import static dev.hourglass.testing.ArchitectureRules.usesNoCoreInternals;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

/**
 * The arrows of hourglass-jackson: no package cycle but its entry point's edge into the internals
 * it shares with {@code jackson3}, core's public API only.
 */
class ArchitectureTest {
  static final String INTERNAL = "dev.hourglass.jackson.internal";
  static final JavaClasses JACKSON = mainClasses("dev.hourglass.jackson", "dev.hourglass.jackson3");

  @Test
  void packagesAreFreeOfCyclesButTheEntryPointsEdge() {
    // JacksonCodecs makes the shared codec, which throws the API's JsonCodecException.
    packagesFormNoCycleBut(INTERNAL, JacksonCodecs.class).check(JACKSON);
  }

  @Test
  void onlyTheEntryPointReachesIntoTheInternals() {
    onlyTheEntryPointsReachInto(INTERNAL, "dev.hourglass.jackson", JacksonCodecs.class)
        .check(JACKSON);
  }

  @Test
  void usesNoInternalsOfCore() {
    usesNoCoreInternals().check(JACKSON);
  }
}
