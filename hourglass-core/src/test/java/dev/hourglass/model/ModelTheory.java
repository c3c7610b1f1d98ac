package dev.hourglass.model;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.TestInfo;
import org.quicktheories.QuickTheory;
import org.quicktheories.api.AsString;
import org.quicktheories.core.Configuration;
import org.quicktheories.core.Gen;
import org.quicktheories.core.Reporter;
import org.quicktheories.core.Strategy;

/**
 * QuickTheories as the model properties run it, from a plain JUnit Jupiter {@code @Test}: the
 * property's own number of examples, shrinking bounded in time, and a seed that replays.
 *
 * <p>Settings, as system properties (Maven passes {@code -D} settings on to the tests):
 *
 * <ul>
 *   <li>{@code QT_SEED}: the seed (QuickTheories' own setting); drawn afresh for every run
 *       otherwise. It is printed when a property starts and, with the command that replays it, when
 *       the property fails.
 *   <li>{@code QT_EXAMPLES}: examples per property, replacing each property's default (for longer
 *       local runs).
 *   <li>{@code QT_SHRINKS}: shrink cycles (QuickTheories' setting; default here {@value
 *       #SHRINK_CYCLES}).
 *   <li>{@value #SHRINK_SECONDS}: this test's own bound on the time spent shrinking (default
 *       {@value #DEFAULT_SHRINK_SECONDS} s). Every example is a run against Redis that waits for
 *       the clock, a second or so, not a function call; once the bound is spent, the remaining
 *       shrink candidates are passed over and the smallest failure found so far is reported.
 * </ul>
 */
public final class ModelTheory {
  static final int SHRINK_CYCLES = 500;
  static final String SHRINK_SECONDS = "hg.model.shrinkSeconds";
  static final int DEFAULT_SHRINK_SECONDS = 30;

  private ModelTheory() {}

  /**
   * Checks {@code property} on {@code examples} values of {@code gen} (unless {@code QT_EXAMPLES}
   * says otherwise); a failure is shrunk, then reported with its seed.
   */
  public static <T> void check(
      TestInfo test, int examples, Coverage coverage, Gen<T> gen, Consumer<T> property) {
    String name =
        test.getTestClass().orElseThrow().getSimpleName()
            + "#"
            + test.getTestMethod().orElseThrow().getName();
    Strategy system = Configuration.systemStrategy(); // reads QT_SEED, QT_EXAMPLES, QT_SHRINKS
    Budget budget = new Budget(Long.getLong(SHRINK_SECONDS, DEFAULT_SHRINK_SECONDS), coverage);
    Strategy strategy =
        system
            .withExamples(isSet(Configuration.EXAMPLES) ? system.examples() : examples)
            .withShrinkCycles(isSet(Configuration.SHRINKS) ? system.shrinkCycles() : SHRINK_CYCLES)
            .withReporter(new Report(name, budget));
    long seed = strategy.prng().getInitialSeed();
    System.out.printf(
        "%s: %d examples, seed %d (-D%s=%d replays it)%n",
        name, strategy.examples(), seed, Configuration.SEED, seed);
    QuickTheory.qt(() -> strategy).forAll(gen).checkAssert(budget.wrap(property));
  }

  private static boolean isSet(String property) {
    return System.getProperty(property) != null;
  }

  /**
   * Runs the property until it first fails, then for at most the shrink time: candidates after that
   * pass without running, so QuickTheories keeps the smallest failure found.
   */
  private static final class Budget {
    private final long shrinkNanos;
    private final AtomicLong shrinkEnds = new AtomicLong(Long.MAX_VALUE);
    private final AtomicInteger shrinkRuns = new AtomicInteger();
    private final Coverage coverage;
    private volatile boolean failed;

    Budget(long shrinkSeconds, Coverage coverage) {
      this.shrinkNanos = TimeUnit.SECONDS.toNanos(shrinkSeconds);
      this.coverage = coverage;
    }

    <T> Consumer<T> wrap(Consumer<T> property) {
      return value -> {
        if (failed) {
          if (System.nanoTime() > shrinkEnds.get()) {
            return;
          }
          shrinkRuns.incrementAndGet();
        }
        try {
          property.accept(value);
        } catch (Throwable e) {
          if (!failed) {
            failed = true;
            coverage.freeze();
            shrinkEnds.set(System.nanoTime() + shrinkNanos);
          }
          throw e;
        }
      };
    }

    String describe() {
      return "shrinking ran the property "
          + shrinkRuns.get()
          + " more time(s)"
          + (System.nanoTime() > shrinkEnds.get() ? ", until its time bound" : "");
    }
  }

  /** Fails the test with the smallest example, the seed and the command that replays it. */
  private record Report(String test, Budget budget) implements Reporter {
    @Override
    public void falisification(
        long seed,
        int examplesUsed,
        Object smallest,
        Throwable cause,
        List<Object> others,
        AsString<Object> toString) {
      throw new AssertionError(message(seed, examplesUsed, smallest, toString), cause);
    }

    @Override
    public void falisification(
        long seed,
        int examplesUsed,
        Object smallest,
        List<Object> others,
        AsString<Object> toString) {
      throw new AssertionError(message(seed, examplesUsed, smallest, toString));
    }

    @Override
    public void valuesExhausted(int completedExamples) {
      throw new IllegalStateException(
          test + ": gave up after " + completedExamples + " examples (no assumptions expected)");
    }

    private String message(
        long seed, int examplesUsed, Object smallest, AsString<Object> toString) {
      return test
          + " falsified after "
          + examplesUsed
          + " example(s), seed "
          + seed
          + " ("
          + budget.describe()
          + ").\nSmallest failing example found:\n  "
          + toString.asString(smallest)
          + "\nReplay it (the same examples in the same order; a failure that depends on timing"
          + " may need a few runs) from the repository root with:\n"
          + "  ./mvnw -pl hourglass-core -am -Dsurefire.failIfNoSpecifiedTests=false -Dtest='"
          + test
          + "' -D"
          + Configuration.SEED
          + "="
          + seed
          + " test\nThe cause below is the smallest example's failure, with its steps.";
    }
  }
}
