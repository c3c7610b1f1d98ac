package dev.hourglass.embedded;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the server's jar may carry from this module: the embedded {@code redis-server} it runs, no
 * test framework and no test topology (those live in {@code hourglass-testing}).
 */
class ArchitectureTest {
  static JavaClasses embedded;

  @BeforeAll
  static void importMainClasses() {
    embedded =
        new ClassFileImporter()
            // Not Predefined.DO_NOT_INCLUDE_TESTS: it only knows target/test-classes, and builds
            // may use another output folder (-Dhg.target).
            .withImportOption(location -> !location.contains("/test-classes/"))
            .importPackages("dev.hourglass");
  }

  @Test
  void theImportFoundTheMainClasses() {
    // Guards the rules below against passing on an empty import.
    assertThat(embedded.contain(RedisServer.class)).isTrue();
  }

  @Test
  void mainCodeDependsOnNoTestFramework() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.junit..", "org.assertj..", "org.awaitility..", "org.mockito..")
        .check(embedded);
  }

  @Test
  void mainCodeCarriesNoTestTopology() {
    noClasses()
        .should()
        .resideInAPackage("dev.hourglass.testing..")
        .orShould()
        .dependOnClassesThat()
        .resideInAPackage("dev.hourglass.testing..")
        .orShould()
        .haveSimpleNameContaining("Cluster")
        .orShould()
        .haveSimpleNameContaining("Sentinel")
        .orShould()
        .haveSimpleNameContaining("SlotMigration")
        .because("cluster and Sentinel topologies are test fixtures of hourglass-testing")
        .check(embedded);
  }

  @Test
  void packagesFormNoCycles() {
    slices().matching("dev.hourglass.(**)").should().beFreeOfCycles().check(embedded);
  }
}
