package dev.hourglass;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The arrows of the architecture: API -> internal only in bodies, core -> server and Spring never.
 */
class ArchitectureTest {
  static final DescribedPredicate<JavaClass> INTERNAL =
      JavaClass.Predicates.resideInAPackage("dev.hourglass.internal..");
  static JavaClasses core;

  @BeforeAll
  static void importCore() {
    core =
        new ClassFileImporter()
            // Not Predefined.DO_NOT_INCLUDE_TESTS: it only knows target/test-classes, and builds
            // may use
            // another output folder (-Dhg.target).
            .withImportOption(location -> !location.contains("/test-classes/"))
            .importPackages("dev.hourglass");
  }

  @Test
  void publicApiSignaturesDoNotExposeInternals() {
    ArchRule rule =
        methods()
            .that()
            .areDeclaredInClassesThat()
            .resideInAnyPackage("dev.hourglass", "dev.hourglass.spi")
            .and()
            .arePublic()
            .should()
            .haveRawReturnType(DescribedPredicate.not(INTERNAL))
            .andShould()
            .haveRawParameterTypes(
                DescribedPredicate.not(DescribedPredicate.anyElementThat(INTERNAL)));
    rule.check(core);
  }

  @Test
  void publicApiFieldsDoNotExposeInternals() {
    noFields()
        .that()
        .areDeclaredInClassesThat()
        .resideInAnyPackage("dev.hourglass", "dev.hourglass.spi")
        .and()
        .arePublic()
        .should()
        .haveRawType(INTERNAL)
        .check(core);
  }

  @Test
  void onlyTheBuilderReachesIntoInternals() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.hourglass", "dev.hourglass.spi")
        .and()
        .doNotHaveSimpleName("HourglassBuilder")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.hourglass.internal..")
        .check(core);
  }

  @Test
  void apiDoesNotExposeTheRedisClient() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.hourglass", "dev.hourglass.spi")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.lettuce..", "io.netty..")
        .check(core);
  }

  @Test
  void coreIsFreeOfServerAndSpring() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.hourglass.server..", "io.javalin..", "org.springframework..", "jakarta.servlet..")
        .check(core);
  }

  @Test
  void spiDependsOnNothingButTheApi() {
    noClasses()
        .that()
        .resideInAPackage("dev.hourglass.spi..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.hourglass.internal..")
        .check(core);
  }
}
