package dev.hourglass.model;

import dev.hourglass.model.Choices.Due;
import dev.hourglass.model.Choices.DueKind;
import dev.hourglass.model.Choices.Fail;
import dev.hourglass.model.Choices.FailKind;
import dev.hourglass.model.Choices.Item;
import dev.hourglass.model.Choices.Lease;
import dev.hourglass.model.Choices.LeaseKind;
import dev.hourglass.model.Choices.Prefer;
import dev.hourglass.model.Choices.ReceiptKind;
import dev.hourglass.model.Choices.Target;
import dev.hourglass.model.Choices.Ttl;
import dev.hourglass.model.Choices.TtlKind;
import dev.hourglass.model.Steps.Ack;
import dev.hourglass.model.Steps.Cancel;
import dev.hourglass.model.Steps.Claim;
import dev.hourglass.model.Steps.Enqueue;
import dev.hourglass.model.Steps.EnqueueAll;
import dev.hourglass.model.Steps.Extend;
import dev.hourglass.model.Steps.NackStep;
import dev.hourglass.model.Steps.Promote;
import dev.hourglass.model.Steps.Purge;
import dev.hourglass.model.Steps.Requeue;
import dev.hourglass.model.Steps.RequeueAll;
import dev.hourglass.model.Steps.Reschedule;
import dev.hourglass.model.Steps.Step;
import dev.hourglass.model.Steps.Wait;
import dev.hourglass.model.Steps.WaitFor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The scenarios the properties run, as QuickTheories generators. Every value is drawn through
 * QuickTheories' {@link Generate} combinators, never from a {@code Random} of their own, so a
 * scenario replays from its seed and shrinks: a list towards its shortest length (dropping steps
 * from the end), a weighted choice towards its first option, a number towards the low end of its
 * range.
 */
public final class Scenarios {
  /** Slot widths the queues under test use: far shorter than the 60 s default. */
  static final List<Integer> SLOT_WIDTHS_MS = List.of(100, 200, 400);

  private Scenarios() {}

  /** A step, and whether the reads after it include stats (which catch up) or only gets. */
  public record Act(Step step, boolean sweep) {
    @Override
    public String toString() {
      return step + (sweep ? "" : " (then reads without stats)");
    }
  }

  /** A try of a one-client property. */
  public record Scenario(int partitions, int slotWidthMs, List<Act> acts, ModelLimits limits) {
    @Override
    public String toString() {
      StringBuilder s = new StringBuilder();
      s.append(partitions).append(" partition(s), slot width ").append(slotWidthMs).append(" ms, ");
      s.append(limits).append(':');
      for (int i = 0; i < acts.size(); i++) {
        s.append("\n    ").append(i + 1).append(". ").append(acts.get(i));
      }
      return s.toString();
    }
  }

  /** A round of the two-client property: A's and B's steps at once, or a lone wait. */
  public record Round(Step a, Step b, boolean sweep) {
    public boolean alone() {
      return b == null;
    }

    @Override
    public String toString() {
      return (alone() ? a.toString() : "A: " + a + "  |  B: " + b)
          + (sweep ? "" : " (then reads without stats)");
    }
  }

  /** A try of the two-client property: one partition. */
  public record PairScenario(int slotWidthMs, List<Round> rounds, ModelLimits limits) {
    @Override
    public String toString() {
      StringBuilder s = new StringBuilder();
      s.append("1 partition, slot width ").append(slotWidthMs).append(" ms, ");
      s.append(limits).append(':');
      for (int i = 0; i < rounds.size(); i++) {
        s.append("\n    ").append(i + 1).append(". ").append(rounds.get(i));
      }
      return s.toString();
    }
  }

  /** Scenarios of {@code min} to {@code max} steps on a queue of 1 or 2 partitions. */
  public static Gen<Scenario> sequential(int min, int max) {
    // The reads after a wait never include stats, so the step after it meets the lapsed leases
    // and ttls the wait let pass with nothing caught up yet.
    Gen<Act> act =
        step(true).zip(sweep(), (step, sweep) -> new Act(step, sweep && !(step instanceof Wait)));
    return range(1, 2)
        .zip(
            oneOf(SLOT_WIDTHS_MS),
            listOf(act, min, max),
            limits(),
            (p, width, acts, limits) -> new Scenario(p, width, acts, limits.forPartitions(p)));
  }

  /** No limits half the time; else a concurrency of 1 to 3, a rate of 1 to 4, or both. */
  static Gen<ModelLimits> limits() {
    Gen<Integer> small = range(1, 4);
    return weighted(
        Pair.of(3, just(ModelLimits.NONE)),
        Pair.of(1, range(1, 3).map(c -> new ModelLimits(c, 0))),
        Pair.of(1, small.map(r -> new ModelLimits(0, r))),
        Pair.of(1, range(1, 3).zip(small, ModelLimits::new)));
  }

  /** Rounds of two clients' steps at once, with the odd wait for the clock in between. */
  public static Gen<PairScenario> pairs(int min, int max) {
    Gen<Step> step = step(false);
    Gen<Round> pair = step.zip(step, sweep(), Round::new);
    Gen<Round> wait = waitStep().map(w -> new Round(w, null, false));
    Gen<Round> round = weighted(Pair.of(8, pair), Pair.of(1, wait));
    return oneOf(SLOT_WIDTHS_MS).zip(listOf(round, min, max), limits(), PairScenario::new);
  }

  /** Any step of the vocabulary; waits only when {@code waits}. */
  static Gen<Step> step(boolean waits) {
    Gen<Integer> pick = range(0, 999);
    Gen<Integer> id = range(0, Choices.IDS.size() - 1);
    Gen<Due> due = due();
    Gen<Target> anyTarget = pick.zip(Generate.enumValues(Prefer.class), Target::new);
    Gen<Target> leasedTarget =
        pick.zip(
            weighted(Pair.of(5, just(Prefer.INFLIGHT)), Pair.of(1, just(Prefer.ANY))), Target::new);
    Gen<Target> deadTarget =
        pick.zip(
            weighted(Pair.of(4, just(Prefer.DEAD)), Pair.of(1, just(Prefer.ANY))), Target::new);
    Gen<ReceiptKind> receipt =
        weighted(
            Pair.of(8, just(ReceiptKind.CURRENT)),
            Pair.of(2, just(ReceiptKind.OLD)),
            Pair.of(1, just(ReceiptKind.OTHER_JOB)),
            Pair.of(1, just(ReceiptKind.BOGUS)));
    Gen<Lease> shortLease = range(30, 250).map(ms -> new Lease(LeaseKind.SHORT, ms));
    Gen<Lease> lease =
        weighted(
            Pair.of(4, shortLease),
            Pair.of(2, just(new Lease(LeaseKind.LONG, 0))),
            Pair.of(1, just(new Lease(LeaseKind.JOB_DEFAULT, 0))));
    Gen<Lease> extendLease =
        weighted(Pair.of(1, shortLease), Pair.of(1, just(new Lease(LeaseKind.LONG, 0))));
    Gen<Fail> fail =
        weighted(
            Pair.of(2, just(new Fail(FailKind.RETRY_NOW, 0))),
            Pair.of(2, range(10, 60).map(ms -> new Fail(FailKind.RETRY_SOON, ms))),
            Pair.of(2, range(150, 700).map(ms -> new Fail(FailKind.RETRY_SLOT, ms))),
            Pair.of(1, just(new Fail(FailKind.RETRY_FAR, 0))),
            Pair.of(1, just(new Fail(FailKind.BACKOFF, 0))),
            Pair.of(2, just(new Fail(FailKind.KILL, 0))));

    Gen<Step> enqueue =
        id.zip(
            due,
            range(1, 3),
            Generate.booleans(),
            ttl(),
            // A ttl counts from creation, which a past due time does not reveal: none then.
            (i, d, max, ifAbsent, ttl) ->
                new Enqueue(i, d, max, ifAbsent, d.kind() == DueKind.PAST ? Ttl.NONE : ttl));
    Gen<Step> enqueueAll = listOf(id.zip(due, Item::new), 1, 3).map(EnqueueAll::new);
    Gen<Step> cancel = anyTarget.map(Cancel::new);
    Gen<Step> reschedule = anyTarget.zip(due, Reschedule::new);
    Gen<Step> claim = range(1, 3).zip(lease, Claim::new);
    Gen<Step> ack = leasedTarget.zip(receipt, Ack::new);
    Gen<Step> nack = leasedTarget.zip(receipt, fail, NackStep::new);
    Gen<Step> extend = leasedTarget.zip(receipt, extendLease, Extend::new);
    Gen<Step> requeue = deadTarget.map(Requeue::new);

    List<Pair<Integer, Gen<Step>>> steps =
        new ArrayList<>(
            List.of(
                Pair.of(10, enqueue),
                Pair.of(2, enqueueAll),
                Pair.of(2, cancel),
                Pair.of(3, reschedule),
                Pair.of(10, claim),
                Pair.of(4, ack),
                Pair.of(6, nack),
                Pair.of(2, extend),
                Pair.of(3, just(new Promote())),
                Pair.of(2, requeue),
                Pair.of(1, just(new RequeueAll())),
                Pair.of(1, just(new Purge()))));
    if (waits) {
      steps.add(Pair.of(6, waitStep()));
    }
    return Generate.frequency(steps);
  }

  static Gen<Step> waitStep() {
    return weighted(
        Pair.of(4, just(new Wait(WaitFor.ANY))),
        Pair.of(3, just(new Wait(WaitFor.LEASE))),
        Pair.of(2, just(new Wait(WaitFor.DUE))),
        Pair.of(1, just(new Wait(WaitFor.TTL))));
  }

  static Gen<Due> due() {
    return weighted(
        Pair.of(3, just(new Due(DueKind.NOW, 0))),
        Pair.of(1, just(new Due(DueKind.ZERO, 0))),
        Pair.of(2, just(new Due(DueKind.PAST, 0))),
        Pair.of(3, range(10, 60).map(ms -> new Due(DueKind.SOON, ms))),
        Pair.of(4, range(150, 700).map(ms -> new Due(DueKind.SLOT, ms))),
        Pair.of(1, just(new Due(DueKind.FAR, 0))));
  }

  static Gen<Ttl> ttl() {
    return weighted(
        Pair.of(6, just(Ttl.NONE)),
        Pair.of(2, range(150, 900).map(ms -> new Ttl(TtlKind.SHORT, ms))),
        Pair.of(1, just(new Ttl(TtlKind.LONG, 0))));
  }

  /**
   * Whether the reads after a step include stats (which catch up): half the time, so that lapsed
   * leases and ttls often meet the next step with nothing caught up yet.
   */
  static Gen<Boolean> sweep() {
    return weighted(Pair.of(1, just(true)), Pair.of(1, just(false)));
  }

  // ---- combinators on Generate ----

  /** One of the options, as likely as its weight; shrinks towards the first. */
  @SafeVarargs
  static <T> Gen<T> weighted(Pair<Integer, Gen<T>>... options) {
    return Generate.frequency(Arrays.asList(options));
  }

  static <T> Gen<T> just(T value) {
    return Generate.constant(value);
  }

  static <T> Gen<T> oneOf(List<T> values) {
    return Generate.pick(List.copyOf(values));
  }

  static Gen<Integer> range(int min, int max) {
    return Generate.range(min, max);
  }

  /** Lists of {@code min} to {@code max} elements: the length is drawn first. */
  static <T> Gen<List<T>> listOf(Gen<T> element, int min, int max) {
    Gen<Integer> sizes = Generate.range(min, max);
    Gen<List<T>> lists =
        in -> {
          int size = sizes.generate(in);
          List<T> out = new ArrayList<>(size);
          for (int i = 0; i < size; i++) {
            out.add(element.generate(in));
          }
          return List.copyOf(out);
        };
    return lists.describedAs(List::toString);
  }
}
