package dev.hourglass.model;

import java.util.List;

/**
 * One API call as it happened: what was asked and answered, when (by the JVM clock around it, which
 * Redis on this host shares), and how the model judges the answer.
 *
 * @param text the call and its answer, for logs
 * @param lo earliest server time any script of the call can have read ({@code TIME}): the JVM clock
 *     before the call, less {@link Checker#TOLERANCE_MS}
 * @param hi latest such time: the JVM clock after the call, plus the tolerance
 * @param partitions the partitions whose scripts the call may run, and so whose server time its
 *     outcome depends on
 * @param catchesUp whether it runs a catch-up (claim, stats, promote): a catch-up that a concurrent
 *     call does in several rounds may show its first round's work to another call first
 * @param facts checks that hold whatever state the queue was in (receipts are new, lease deadlines
 *     lie in the window...), run once
 * @param judge the model's verdict from one possible state at given server times
 */
public record Call(
    String text,
    long lo,
    long hi,
    int[] partitions,
    boolean catchesUp,
    Runnable facts,
    Judge judge) {

  /** The states the queue may be in after the call, or an {@link AssertionError} if none. */
  @FunctionalInterface
  public interface Judge {
    /**
     * @param before a state the queue may have been in when the call's scripts ran
     * @param t the server time each partition's script read, indexed by partition (only the call's
     *     own partitions are meaningful)
     * @return the states the queue may be in afterwards: at least one
     * @throws AssertionError when the answer is not what the model says for this state and time
     */
    List<World> apply(World before, long[] t);
  }

  @Override
  public String toString() {
    return text;
  }
}
