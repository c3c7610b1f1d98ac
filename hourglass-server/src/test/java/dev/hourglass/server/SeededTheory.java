package dev.hourglass.server;

import java.util.List;
import org.junit.jupiter.api.TestInfo;
import org.quicktheories.QuickTheory;
import org.quicktheories.api.AsString;
import org.quicktheories.core.Configuration;
import org.quicktheories.core.Reporter;
import org.quicktheories.core.Strategy;

/**
 * QuickTheories as this module's property tests run it, from a plain JUnit Jupiter {@code @Test}:
 * the property's own number of examples, a bounded shrink budget, and a seed that replays.
 *
 * <p>The seed is drawn afresh for every run unless the system property {@code QT_SEED} gives it
 * (QuickTheories' own setting); it is printed when the property starts and again, with the command
 * that replays it, when the property fails. {@code QT_EXAMPLES} and {@code QT_SHRINKS} replace the
 * number of examples and the shrink budget. Maven passes {@code -D} settings on to the tests:
 *
 * <pre>{@code
 * ./mvnw -pl hourglass-server -am -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dtest='FuzzTest#rawRequestsAreAnsweredInTheErrorShapeAndRejectedOnesWriteNothing' \
 *     -DQT_SEED=1234567890 test
 * }</pre>
 *
 * <p>Shrinking is bounded because every example of these properties is an HTTP request and a read
 * of the whole Redis, not a function call: QuickTheories' default, a hundred shrink cycles per
 * example, would take hours.
 */
final class SeededTheory {
  /** Shrink cycles when {@code QT_SHRINKS} does not say: a thousand more requests at most. */
  static final int SHRINK_CYCLES = 1000;

  private SeededTheory() {}

  /**
   * A QuickTheory for the running test method that tries {@code examples} examples (unless {@code
   * QT_EXAMPLES} says otherwise), with a seed from {@code QT_SEED} or a fresh one.
   */
  static QuickTheory forTest(TestInfo test, int examples) {
    String name =
        test.getTestClass().orElseThrow().getSimpleName()
            + "#"
            + test.getTestMethod().orElseThrow().getName();
    Strategy system = Configuration.systemStrategy(); // reads QT_SEED, QT_EXAMPLES, QT_SHRINKS
    Strategy strategy =
        system
            .withExamples(isSet(Configuration.EXAMPLES) ? system.examples() : examples)
            .withShrinkCycles(isSet(Configuration.SHRINKS) ? system.shrinkCycles() : SHRINK_CYCLES)
            .withReporter(new ReplayingReporter(name));
    System.out.printf(
        "%s: %d examples, seed %d (-D%s=%d replays it)%n",
        name,
        strategy.examples(),
        strategy.prng().getInitialSeed(),
        Configuration.SEED,
        strategy.prng().getInitialSeed());
    return QuickTheory.qt(() -> strategy);
  }

  private static boolean isSet(String property) {
    return System.getProperty(property) != null;
  }

  /** Fails the test with the smallest example, the seed and the command that replays it. */
  private record ReplayingReporter(String test) implements Reporter {
    private static final int OTHERS_SHOWN = 3;

    @Override
    public void falisification(
        long seed,
        int examplesUsed,
        Object smallest,
        Throwable cause,
        List<Object> others,
        AsString<Object> toString) {
      throw new AssertionError(message(seed, examplesUsed, smallest, others, toString), cause);
    }

    @Override
    public void falisification(
        long seed,
        int examplesUsed,
        Object smallest,
        List<Object> others,
        AsString<Object> toString) {
      throw new AssertionError(message(seed, examplesUsed, smallest, others, toString));
    }

    @Override
    public void valuesExhausted(int completedExamples) {
      throw new IllegalStateException(
          test
              + ": gave up after "
              + completedExamples
              + " examples; the generators could not meet their assumptions");
    }

    private String message(
        long seed,
        int examplesUsed,
        Object smallest,
        List<Object> others,
        AsString<Object> toString) {
      StringBuilder m = new StringBuilder();
      m.append(test)
          .append(" falsified after ")
          .append(examplesUsed)
          .append(" example(s), seed ")
          .append(seed)
          .append(".\nSmallest falsifying example (after shrinking):\n  ")
          .append(toString.asString(smallest));
      List<String> shown = others.stream().map(toString::asString).distinct().toList();
      if (!shown.isEmpty()) {
        m.append("\nOther falsifying examples (the first one found is the last):");
        shown
            .subList(Math.max(0, shown.size() - OTHERS_SHOWN), shown.size())
            .forEach(o -> m.append("\n  ").append(o));
      }
      m.append("\nReplay it from the repository root with:\n  ./mvnw -pl hourglass-server -am")
          .append(" -Dsurefire.failIfNoSpecifiedTests=false -Dtest='")
          .append(test)
          .append("' -D")
          .append(Configuration.SEED)
          .append('=')
          .append(seed)
          .append(" test");
      return m.toString();
    }
  }
}
