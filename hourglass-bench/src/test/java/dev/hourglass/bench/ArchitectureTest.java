package dev.hourglass.bench;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The harness measures Hourglass from outside: through the public API, and through core's test jar
 * ({@code dev.hourglass.keyspace}) for the layout it must mirror, never through core's internals.
 */
class ArchitectureTest {
  static JavaClasses bench;

  @BeforeAll
  static void importBench() {
    bench =
        new ClassFileImporter()
            // Not Predefined.DO_NOT_INCLUDE_TESTS: it only knows target/test-classes, and builds
            // may use another output folder (-Dhg.target).
            .withImportOption(location -> !location.contains("/test-classes/"))
            .importPackages("dev.hourglass.bench", "dev.hourglass.migrate");
    assertThat(bench.contain(Bench.class)).as("the harness's classes were imported").isTrue();
  }

  @Test
  void theHarnessUsesNoInternals() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.hourglass.bench..", "dev.hourglass.migrate..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.hourglass.internal..")
        .check(bench);
  }

  @Test
  void packagesAreFreeOfCycles() {
    slices().matching("dev.hourglass.(*)..").should().beFreeOfCycles().check(bench);
  }
}
