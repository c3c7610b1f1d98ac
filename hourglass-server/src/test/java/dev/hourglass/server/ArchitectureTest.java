package dev.hourglass.server;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static dev.hourglass.testing.ArchitectureRules.mainClasses;
import static dev.hourglass.testing.ArchitectureRules.packagesFormNoCycle;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

/**
 * The arrows of the server's main code: its packages form no cycle, the root package ({@code Main},
 * {@code HourglassServer}) wires the others and nothing depends back on it, the {@code json}
 * package depends on no other; it uses the modules' public APIs only, and no test code.
 */
class ArchitectureTest {
  static final JavaClasses SERVER = mainClasses("dev.hourglass.server");

  @Test
  void packagesAreFreeOfCycles() {
    packagesFormNoCycle().check(SERVER);
  }

  @Test
  void nothingDependsOnTheRootPackage() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.hourglass.server")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.hourglass.server")
        .check(SERVER);
  }

  @Test
  void theJsonPackageDependsOnNoOtherServerPackage() {
    noClasses()
        .that()
        .resideInAPackage("dev.hourglass.server.json..")
        .should()
        .dependOnClassesThat(
            resideInAPackage("dev.hourglass.server..")
                .and(not(resideInAPackage("dev.hourglass.server.json.."))))
        .check(SERVER);
  }

  @Test
  void usesNoInternalsOfOtherModules() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.hourglass..internal..")
        .check(SERVER);
  }

  @Test
  void mainCodeUsesNoTestCode() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.hourglass.testing..",
            "org.junit..",
            "org.assertj..",
            "org.awaitility..",
            "org.quicktheories..",
            "com.tngtech.archunit..",
            "org.openqa.selenium..")
        .check(SERVER);
  }
}
