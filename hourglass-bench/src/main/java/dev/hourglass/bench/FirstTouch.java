package dev.hourglass.bench;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What this machine charges for memory a process touches for the first time, as a growing Redis
 * does: {@code hourglass-bench/run first-touch [STEPS]} allocates STEPS blocks of 256 MB one after
 * the other, keeping them all, and prints the time per 4 KB page of each block. Java zero-fills a
 * direct buffer when it allocates it, so that time is the kernel's page fault, the kernel's zeroing
 * of the page and Java's own zero-fill (a few hundredths of a microsecond per page once the page is
 * there). See docs/BENCHMARKS-HISTORY.md, "The fill and this machine's memory".
 */
final class FirstTouch {
  private static final int BLOCK = 256 << 20;
  private static final int PAGE = 4096;

  private FirstTouch() {}

  public static void main(String[] args) {
    int steps = args.length == 0 ? 12 : parseSteps(args);
    List<ByteBuffer> kept = new ArrayList<>(steps);
    for (int step = 1; step <= steps; step++) {
      long start = System.nanoTime();
      kept.add(ByteBuffer.allocateDirect(BLOCK));
      double usPerPage = (System.nanoTime() - start) / 1e3 / (BLOCK / PAGE);
      System.out.println(
          String.format(
              Locale.ROOT,
              "FIRST_TOUCH touched_mb=%d us_per_page=%.2f",
              (long) step * (BLOCK >> 20),
              usPerPage));
    }
    System.out.println("# kept " + kept.size() + " blocks");
  }

  /** STEPS, a whole number from 1 to 64; anything else ends the run with exit code 2. */
  private static int parseSteps(String[] args) {
    try {
      int steps = Integer.parseInt(args[0]);
      if (args.length == 1 && steps >= 1 && steps <= 64) {
        return steps;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    System.err.println("usage: hourglass-bench/run first-touch [STEPS], STEPS from 1 to 64 [12]");
    System.exit(2);
    throw new AssertionError("unreachable");
  }
}
