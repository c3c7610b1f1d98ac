package dev.hourglass.testing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceRule;

/**
 * The architecture rules every module checks on its own main code (ArchUnit): its packages form no
 * cycle and it uses no internals of core. A module that uses these declares {@code archunit-junit5}
 * as a test dependency itself.
 */
public final class ArchitectureRules {
  private ArchitectureRules() {}

  /**
   * The main classes of the module under test in these packages, without its test classes: found by
   * their folder, {@code /test-classes/}, not by {@code Predefined.DO_NOT_INCLUDE_TESTS}, which
   * only knows {@code target/test-classes} where builds may use another output folder ({@code
   * -Dhg.target}).
   */
  public static JavaClasses mainClasses(String... packages) {
    return new ClassFileImporter()
        .withImportOption(location -> !location.contains("/test-classes/"))
        .importPackages(packages);
  }

  /** No cycle between packages, each package on its own (a package and its subpackage are two). */
  public static SliceRule packagesFormNoCycle() {
    return slices().matching("dev.hourglass.(**)").should().beFreeOfCycles();
  }

  /**
   * Nothing uses {@code dev.hourglass.internal..}, the internals of core: its API is the way in.
   */
  public static ArchRule usesNoCoreInternals() {
    return noClasses().should().dependOnClassesThat().resideInAPackage("dev.hourglass.internal..");
  }
}
