package dev.hourglass;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The arrows of the architecture: the API never reaches into internals (the builder finds the
 * client through ServiceLoader), no package cycles, no field reach-through or two-way references
 * between the client and its parts, core -> server and Spring never.
 */
class ArchitectureTest {
  static final DescribedPredicate<JavaClass> INTERNAL =
      JavaClass.Predicates.resideInAPackage("dev.hourglass.internal..");
  static final Set<String> CORE_PACKAGES =
      Set.of(
          "dev.hourglass",
          "dev.hourglass.spi",
          "dev.hourglass.internal",
          "dev.hourglass.internal.store");
  static final Class<?> HOURGLASS_CLIENT = classNamed("dev.hourglass.internal.HourglassClient");
  static final Class<?> REDIS_QUEUE = classNamed("dev.hourglass.internal.RedisQueue");
  static final Class<?> QUEUE_HANDLE = classNamed("dev.hourglass.internal.QueueHandle");
  static JavaClasses core;

  private static Class<?> classNamed(String name) {
    try {
      return Class.forName(name);
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }

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
  void theApiReachesNoInternals() {
    // HourglassBuilder finds the client through ServiceLoader (HourglassBuilder.Connector).
    noClasses()
        .that()
        .resideInAnyPackage("dev.hourglass", "dev.hourglass.spi")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.hourglass.internal..")
        .check(core);
  }

  @Test
  void corePackagesAreFreeOfCycles() {
    slices()
        .assignedFrom(
            new SliceAssignment() {
              @Override
              public SliceIdentifier getIdentifierOf(JavaClass c) {
                return CORE_PACKAGES.contains(c.getPackageName())
                    ? SliceIdentifier.of(c.getPackageName())
                    : SliceIdentifier.ignore();
              }

              @Override
              public String getDescription() {
                return "core's packages";
              }
            })
        .should()
        .beFreeOfCycles()
        .check(core);
  }

  /**
   * Wiring you can see: a class reads no field of another class (constants aside); what it uses
   * comes through its constructor and is called through methods.
   */
  @Test
  void noClassReadsAnothersFields() {
    classes()
        .that()
        .resideInAnyPackage(CORE_PACKAGES.toArray(String[]::new))
        .should(
            new ArchCondition<JavaClass>("read no field of another class but constants") {
              @Override
              public void check(JavaClass c, ConditionEvents events) {
                for (JavaFieldAccess a : c.getFieldAccessesFromSelf()) {
                  JavaClass owner = a.getTargetOwner();
                  boolean constant =
                      a.getTarget()
                          .resolveMember()
                          .map(
                              f ->
                                  f.getModifiers().contains(JavaModifier.STATIC)
                                      && f.getModifiers().contains(JavaModifier.FINAL))
                          .orElse(true);
                  if (!constant && !topLevel(owner).equals(topLevel(c))) {
                    events.add(SimpleConditionEvent.violated(a, a.getDescription()));
                  }
                }
              }
            })
        .check(core);
  }

  private static JavaClass topLevel(JavaClass c) {
    JavaClass t = c;
    while (t.getEnclosingClass().isPresent()) {
      t = t.getEnclosingClass().get();
    }
    return t;
  }

  /**
   * The public API carries no test knobs: promotion is the promoters' job (tests drive it apart).
   */
  @Test
  void theQueueApiHasNoPromotionKnob() {
    noMethods()
        .that()
        .areDeclaredInClassesThat()
        .areAssignableTo(Queue.class)
        .should()
        .haveNameMatching("promote.*")
        .check(core);
  }

  /** No two-way references: the client's parts get what they use, never the client. */
  @Test
  void theClientsPartsDoNotKnowTheClient() {
    noClasses()
        .that()
        .resideInAPackage("dev.hourglass.internal..")
        .and()
        .doNotHaveSimpleName("ClientConnector")
        .and(DescribedPredicate.not(JavaClass.Predicates.belongToAnyOf(HOURGLASS_CLIENT)))
        .should()
        .dependOnClassesThat()
        .belongToAnyOf(HOURGLASS_CLIENT)
        .check(core);
  }

  /** Nor do a queue's parts know its engine, which makes them and hands each what it uses. */
  @Test
  void theQueuesPartsDoNotKnowTheEngine() {
    noClasses()
        .that()
        .resideInAPackage("dev.hourglass.internal..")
        .and(
            DescribedPredicate.not(
                JavaClass.Predicates.belongToAnyOf(HOURGLASS_CLIENT, QUEUE_HANDLE, REDIS_QUEUE)))
        .should()
        .dependOnClassesThat()
        .belongToAnyOf(REDIS_QUEUE)
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
