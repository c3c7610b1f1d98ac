package dev.hourglass.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Judges calls against the model, keeping every state the queue may be in.
 *
 * <p>The model is exact, but what a call answers also depends on the server time its scripts read,
 * which the test knows only to lie in the call's window (the JVM clock around it), and, for
 * concurrent calls, on the order Redis ran them in. So the checker keeps the set of states
 * consistent with every answer so far: for each state and each distinct server time in the call's
 * window (between two events of the state, a call's outcome does not change, so one time per
 * interval stands for all), it asks the call's {@link Call.Judge} for the states after it, and
 * keeps them; an answer that no state and time explains fails the test. Later answers (every test
 * step is followed by a {@code get()} of every id) narrow the set down again, nearly always to one.
 *
 * <p>Two sources of clock work that the test does not see happen are modelled as catch-ups that may
 * have run at any time in between:
 *
 * <ul>
 *   <li>with a {@linkplain #Checker(int, boolean) background promoter}, one may have run at any
 *       time before each call;
 *   <li>a claim, stats or promote call that must declare more slot lists answers "need slots" after
 *       doing its ttl and lease work, and is then called again: a concurrent call may run between
 *       the two rounds and see that work done.
 * </ul>
 */
public final class Checker {
  /**
   * Slack between the JVM clock read around a call and the {@code TIME} its scripts read. Both read
   * the same host clock; this only covers rounding and a clock step.
   */
  public static final long TOLERANCE_MS = 5;

  /** More possible states than this means the model has lost track: fail rather than crawl. */
  static final int MAX_WORLDS = 2000;

  private static final int REASONS_SHOWN = 6;

  private final int partitionCount;
  private final boolean backgroundPromoter;
  private Set<World> worlds = new LinkedHashSet<>();
  private int mostWorlds = 1;

  /**
   * @param partitionCount the queue's partitions
   * @param backgroundPromoter whether a background promoter may catch up at any time
   */
  public Checker(int partitionCount, boolean backgroundPromoter) {
    this.partitionCount = partitionCount;
    this.backgroundPromoter = backgroundPromoter;
    worlds.add(World.empty());
  }

  /** One of the possible states: the one to resolve a step's targets against. */
  public World reference() {
    return worlds.iterator().next();
  }

  public Set<World> worlds() {
    return worlds;
  }

  /** The largest number of possible states held at once so far. */
  public int mostWorlds() {
    return mostWorlds;
  }

  /** Judges one call that ran alone. */
  public void observe(Call call) {
    call.facts().run();
    Set<World> next = new LinkedHashSet<>();
    Map<String, String> reasons = new LinkedHashMap<>();
    for (World w : worlds) {
      for (long[] t : times(w, call, null)) {
        List<World> before =
            backgroundPromoter
                ? caughtUpMaybe(w, call.partitions(), t, Long.MIN_VALUE, call.hi())
                : List.of(w);
        for (World v : before) {
          judge(call, v, t, next, reasons, "");
        }
      }
    }
    settle(next, reasons, List.of(call));
  }

  /**
   * Judges two calls that ran at the same time from two clients: the answers must be those of one
   * of the two orders (Redis runs scripts one at a time; the test queue has one partition, so each
   * call is one script, but for the rounds of a catch-up, see the class comment).
   */
  public String observePair(Call a, Call b) {
    if (backgroundPromoter) {
      throw new IllegalStateException("pairs are judged without a background promoter");
    }
    a.facts().run();
    b.facts().run();
    Set<World> next = new LinkedHashSet<>();
    Map<String, String> reasons = new LinkedHashMap<>();
    boolean abFits = false;
    boolean baFits = false;
    for (World w : worlds) {
      abFits |= serially(w, a, b, next, reasons, "order A,B: ");
      baFits |= serially(w, b, a, next, reasons, "order B,A: ");
    }
    settle(next, reasons, List.of(a, b));
    return abFits && baFits ? "both" : abFits ? "A,B only" : "B,A only";
  }

  /** Judges the two calls in this order; true when some state fits. */
  private boolean serially(
      World w,
      Call first,
      Call second,
      Set<World> next,
      Map<String, String> reasons,
      String order) {
    boolean fits = false;
    for (long[] t1 : times(w, first, null)) {
      // A catch-up's first round may have run before the other call, at a time in its window.
      List<World> before =
          second.catchesUp()
              ? caughtUpMaybe(
                  w,
                  intersect(first.partitions(), second.partitions()),
                  t1,
                  second.lo(),
                  Math.min(first.hi(), second.hi()))
              : List.of(w);
      for (World v : before) {
        Set<World> middle = new LinkedHashSet<>();
        judge(first, v, t1, middle, reasons, order);
        for (World m : middle) {
          for (long[] t2 : times(m, second, floor(first.partitions(), t1))) {
            fits |= judge(second, m, t2, next, reasons, order);
          }
        }
      }
    }
    return fits;
  }

  /** Adds the states after the call to {@code next}; true when the call fits this state. */
  private boolean judge(
      Call call,
      World before,
      long[] t,
      Set<World> next,
      Map<String, String> reasons,
      String order) {
    try {
      next.addAll(call.judge().apply(before, t));
      return true;
    } catch (AssertionError e) {
      if (reasons.size() < 50) {
        String reason = firstLines(e.getMessage());
        reasons.putIfAbsent(
            order + call.text() + ": " + reason,
            "at server time " + times(call, t) + " from " + before);
      }
      return false;
    }
  }

  private void settle(Set<World> next, Map<String, String> reasons, List<Call> calls) {
    if (next.isEmpty()) {
      StringBuilder m = new StringBuilder();
      m.append(calls.size() == 1 ? "the answer of " : "the answers of ")
          .append(calls)
          .append(" fit no state the model allows.\nWhy not, per state and server time tried:");
      int shown = 0;
      for (Map.Entry<String, String> r : reasons.entrySet()) {
        if (shown++ == REASONS_SHOWN) {
          m.append("\n  ... ").append(reasons.size() - REASONS_SHOWN).append(" more");
          break;
        }
        m.append("\n  - ").append(r.getKey()).append("\n      ").append(r.getValue());
      }
      m.append("\nPossible states before (").append(worlds.size()).append("):");
      worlds.stream().limit(3).forEach(w -> m.append("\n  ").append(w));
      throw new AssertionError(m.toString());
    }
    if (next.size() > MAX_WORLDS) {
      throw new AssertionError(
          "the model lost track: " + next.size() + " possible states after " + calls);
    }
    worlds = next;
    mostWorlds = Math.max(mostWorlds, worlds.size());
  }

  /**
   * One server time per interval of the call's window in which the state's outcome is constant: the
   * window's start and every event of the state inside it, per partition the call touches; every
   * combination of them when it touches several. {@code floor}, when given, raises the window's
   * start per partition (a call that ran after another read a later time).
   */
  private List<long[]> times(World w, Call call, long[] floor) {
    List<long[]> out = new ArrayList<>();
    long[] t = new long[partitionCount];
    Arrays.fill(t, call.lo());
    combine(w, call, floor, 0, t, out);
    return out;
  }

  private void combine(World w, Call call, long[] floor, int i, long[] t, List<long[]> out) {
    if (i == call.partitions().length) {
      out.add(t.clone());
      return;
    }
    int p = call.partitions()[i];
    long lo = floor == null ? call.lo() : Math.max(call.lo(), floor[p]);
    if (lo > call.hi()) {
      return; // this order is impossible: the call ended before the other one's script ran
    }
    List<Long> candidates = new ArrayList<>();
    candidates.add(lo);
    candidates.addAll(w.events(p).subSet(lo, false, call.hi(), true));
    for (long c : candidates) {
      t[p] = c;
      combine(w, call, floor, i + 1, t, out);
    }
  }

  /**
   * The state as it is, and as a catch-up run at some time in {@code [from, t]} before the call
   * would have left it, per partition (every combination). A catch-up at time x does the work of
   * every ttl and lease deadline by x, so one x per event stands for all. {@code diedHi} is the
   * latest time it can have run at.
   */
  private List<World> caughtUpMaybe(World w, int[] partitions, long[] t, long from, long diedHi) {
    Set<World> out = new LinkedHashSet<>();
    out.add(w);
    for (int p : partitions) {
      List<World> step = new ArrayList<>(out);
      for (World x : step) {
        TreeSet<Long> at = new TreeSet<>();
        if (from != Long.MIN_VALUE && from <= t[p]) {
          at.add(from);
        }
        for (long e : x.clockWorkBy(p, t[p])) {
          if (e > from) {
            at.add(e);
          }
        }
        for (long a : at) {
          // A background promoter runs as often as work falls due: a job this catch-up kills may
          // have died in an earlier pass, at any time from its lease deadline on, while the other
          // jobs' work waited for a later one (CI found a job dead at its deadline 150 while the
          // model, with one catch-up at 225 for another job's lease, asked for 225 or later). A
          // "need slots" rerun (from given) is one catch-up at one time.
          long diedLo = from == Long.MIN_VALUE ? Long.MIN_VALUE : a;
          out.add(x.catchUp(p, a, diedLo, diedHi, 1).world());
        }
      }
    }
    return new ArrayList<>(out);
  }

  private long[] floor(int[] partitions, long[] t) {
    long[] f = new long[partitionCount];
    Arrays.fill(f, Long.MIN_VALUE);
    for (int p : partitions) {
      f[p] = t[p];
    }
    return f;
  }

  private static int[] intersect(int[] a, int[] b) {
    return Arrays.stream(a).filter(x -> Arrays.stream(b).anyMatch(y -> y == x)).toArray();
  }

  private static String times(Call call, long[] t) {
    StringBuilder s = new StringBuilder();
    for (int p : call.partitions()) {
      s.append(s.length() == 0 ? "" : ", ").append('p').append(p).append('=').append(t[p]);
    }
    return s.toString();
  }

  private static String firstLines(String message) {
    if (message == null) {
      return "(no message)";
    }
    String oneLine = message.strip().replaceAll("\\s*\\n\\s*", " ");
    return oneLine.length() > 400 ? oneLine.substring(0, 400) + "..." : oneLine;
  }
}
