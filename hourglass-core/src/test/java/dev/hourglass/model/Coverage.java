package dev.hourglass.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * A tally of what a property's tries exercised (step outcomes, states reached), printed when the
 * property ends: the check that the generators reach the cases they are meant to.
 */
public final class Coverage {
  private final Map<String, Integer> counts = new TreeMap<>();
  private boolean frozen;

  public synchronized void label(String label) {
    if (!frozen) {
      counts.merge(label, 1, Integer::sum);
    }
  }

  /** Stops counting: the runs that follow (shrinking a failure) would only blur the tally. */
  public synchronized void freeze() {
    frozen = true;
  }

  public synchronized int count(String label) {
    return counts.getOrDefault(label, 0);
  }

  public synchronized String report() {
    StringBuilder s = new StringBuilder();
    counts.forEach((k, v) -> s.append(String.format("  %6d  %s%n", v, k)));
    return s.toString();
  }
}
