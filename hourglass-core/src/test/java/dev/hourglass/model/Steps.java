package dev.hourglass.model;

import static dev.hourglass.model.Choices.BACKOFF;
import static dev.hourglass.model.Choices.IDS;
import static dev.hourglass.model.Choices.PAST_MS;
import static dev.hourglass.model.Judging.assertWithin;
import static dev.hourglass.model.Judging.brief;
import static dev.hourglass.model.Judging.call;
import static dev.hourglass.model.Judging.checkDelivery;
import static dev.hourglass.model.Judging.checkInfo;
import static dev.hourglass.model.Judging.deliveries;
import static dev.hourglass.model.Judging.dueOf;
import static dev.hourglass.model.Judging.enqueued;
import static dev.hourglass.model.Judging.hi;
import static dev.hourglass.model.Judging.leaseCheck;
import static dev.hourglass.model.Judging.lo;
import static dev.hourglass.model.Judging.now;
import static dev.hourglass.model.Judging.outcome;
import static dev.hourglass.model.Judging.pin;
import static dev.hourglass.model.Judging.receiptFor;
import static dev.hourglass.model.Judging.requeued;
import static dev.hourglass.model.Judging.sleepPast;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.Delivery;
import dev.hourglass.EnqueueResult;
import dev.hourglass.JobInfo;
import dev.hourglass.JobNotFoundException;
import dev.hourglass.JobState;
import dev.hourglass.JobStateException;
import dev.hourglass.Nack;
import dev.hourglass.NackResult;
import dev.hourglass.Queue;
import dev.hourglass.StaleReceiptException;
import dev.hourglass.internal.Promotions;
import dev.hourglass.model.Choices.Due;
import dev.hourglass.model.Choices.Fail;
import dev.hourglass.model.Choices.FailKind;
import dev.hourglass.model.Choices.Item;
import dev.hourglass.model.Choices.Lease;
import dev.hourglass.model.Choices.ReceiptKind;
import dev.hourglass.model.Choices.Target;
import dev.hourglass.model.Choices.Ttl;
import dev.hourglass.model.Choices.TtlKind;
import dev.hourglass.model.Judging.NewJob;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The steps a scenario is made of: every operation of {@link Queue} and its dead letters, and
 * waiting for the clock, each with how the model judges its answer ({@link Call.Judge}).
 *
 * <p>A step is prepared in the test's thread against one of the model's possible states (which id a
 * target picks, which receipt to present), then executed, possibly on another thread at the same
 * time as another client's step, and yields a {@link Call} that the {@link Checker} judges.
 */
public final class Steps {
  /** The promoter lock a pass takes or renews ({@code Promoter.LOCK_MS}). */
  static final long PROMOTER_LOCK_MS = 3000;

  /** A wait longer than this is skipped: the next event is a far one. */
  static final long MAX_WAIT_MS = 2000;

  private Steps() {}

  /** One step of a scenario. */
  public interface Step {
    /** Resolves the step's choices against a possible state of the model. */
    Action prepare(Run run, World reference);
  }

  /** A prepared step. */
  @FunctionalInterface
  public interface Action {
    /**
     * Runs it through {@code queue}, a handle of the client named {@code client}; null for a step
     * that only waits for the clock.
     */
    Call execute(Queue<byte[]> queue, String client);
  }

  public record Enqueue(int id, Due due, int maxAttempts, boolean ifAbsent, Ttl ttl)
      implements Step {
    @Override
    public Action prepare(Run run, World reference) {
      NewJob job = NewJob.of(run, IDS.get(id), due, maxAttempts, ttl);
      return (queue, client) -> {
        long before = now();
        Result<EnqueueResult> r =
            Result.of(
                () -> ifAbsent ? queue.enqueueIfAbsent(job.spec()) : queue.enqueue(job.spec()));
        long after = now();
        run.coverage.label("enqueue" + (ifAbsent ? "IfAbsent" : "") + ":" + outcome(r));
        return call(
            client + ": " + this + " -> " + r,
            before,
            after,
            new int[] {run.partitionOf(job.id())},
            false,
            () -> {},
            (w, t) ->
                List.of(
                    enqueued(
                        run,
                        w,
                        t[run.partitionOf(job.id())],
                        job,
                        r,
                        !ifAbsent,
                        lo(before),
                        hi(after))));
      };
    }

    @Override
    public String toString() {
      return (ifAbsent ? "EnqueueIfAbsent(" : "Enqueue(")
          + IDS.get(id)
          + " "
          + due
          + ", max "
          + maxAttempts
          + (ttl.kind() == TtlKind.NONE ? "" : ", " + ttl)
          + ")";
    }
  }

  public record EnqueueAll(List<Item> items) implements Step {
    @Override
    public Action prepare(Run run, World reference) {
      List<NewJob> jobs = new ArrayList<>();
      for (Item item : items) {
        jobs.add(NewJob.of(run, IDS.get(item.id()), item.due(), 2, Ttl.NONE));
      }
      int[] parts = run.partitionsOf(jobs.stream().map(NewJob::id).toList());
      return (queue, client) -> {
        long before = now();
        Result<List<EnqueueResult>> r =
            Result.of(() -> queue.enqueueAll(jobs.stream().map(NewJob::spec).toList()));
        long after = now();
        run.coverage.label("enqueueAll:" + outcome(r));
        return call(
            client + ": " + this + " -> " + r,
            before,
            after,
            parts,
            false,
            () -> {},
            (w, t) -> {
              List<EnqueueResult> results = r.get("enqueueAll");
              assertThat(results).as("one result per job").hasSize(jobs.size());
              // Jobs of one batch are applied in request order: a later duplicate of an earlier
              // item is reported as one.
              World x = w;
              for (int i = 0; i < jobs.size(); i++) {
                NewJob job = jobs.get(i);
                assertThat(results.get(i).id()).as("id of result %d", i).isEqualTo(job.id());
                x =
                    enqueued(
                        run,
                        x,
                        t[run.partitionOf(job.id())],
                        job,
                        Result.ok(results.get(i)),
                        false,
                        lo(before),
                        hi(after));
              }
              return List.of(x);
            });
      };
    }

    @Override
    public String toString() {
      return "EnqueueAll" + items;
    }
  }

  public record Cancel(Target target) implements Step {
    @Override
    public Action prepare(Run run, World reference) {
      String id = target.resolve(reference);
      return (queue, client) -> {
        long before = now();
        Result<Boolean> r = Result.of(() -> queue.cancel(id));
        long after = now();
        run.coverage.label("cancel:" + outcome(r));
        return call(
            client + ": Cancel(" + id + ") -> " + r,
            before,
            after,
            new int[] {run.partitionOf(id)},
            false,
            () -> {},
            (w, t) -> {
              ModelJob j = w.job(id);
              if (j == null) {
                assertThat(r.get("cancel")).as("cancel of absent %s", id).isFalse();
                return List.of(w);
              }
              if (j.leased()) {
                r.fails(
                    JobStateException.class,
                    run,
                    id,
                    "cancel of " + j,
                    e -> assertThat(e.state()).isEqualTo(JobState.INFLIGHT));
                return List.of(w);
              }
              assertThat(r.get("cancel of " + j)).as("cancel of %s", j).isTrue();
              return List.of(w.without(id).with(w.counters().plusCancelled()));
            });
      };
    }

    @Override
    public String toString() {
      return "Cancel(" + target + ")";
    }
  }

  public record Reschedule(Target target, Due due) implements Step {
    @Override
    public Action prepare(Run run, World reference) {
      String id = target.resolve(reference);
      return (queue, client) -> {
        long before = now();
        long past = before - PAST_MS;
        Result<JobInfo<byte[]>> r =
            Result.of(
                () ->
                    switch (due.kind()) {
                      case NOW -> queue.reschedule(id, Duration.ZERO);
                      case ZERO -> queue.reschedule(id, Instant.ofEpochMilli(before));
                      case PAST -> queue.reschedule(id, Instant.ofEpochMilli(past));
                      default -> queue.reschedule(id, Duration.ofMillis(due.delayMs()));
                    });
        long after = now();
        run.coverage.label("reschedule:" + outcome(r));
        return call(
            client
                + ": Reschedule("
                + id
                + " "
                + due
                + ") -> "
                + (r.failed() ? r : brief(r.value())),
            before,
            after,
            new int[] {run.partitionOf(id)},
            false,
            () -> {},
            (w, t) -> {
              ModelJob j = w.job(id);
              if (j == null) {
                r.fails(JobNotFoundException.class, run, id, "reschedule of absent " + id);
                return List.of(w);
              }
              if (!j.waiting()) {
                JobState refused = j.leased() ? JobState.INFLIGHT : JobState.DEAD;
                r.fails(
                    JobStateException.class,
                    run,
                    id,
                    "reschedule of " + j,
                    e -> assertThat(e.state()).isEqualTo(refused));
                return List.of(w);
              }
              JobInfo<byte[]> info = r.get("reschedule of " + j);
              long at = info.runAt().toEpochMilli();
              switch (due.kind()) {
                case ZERO -> assertThat(at).as("due").isEqualTo(before);
                case PAST -> assertThat(at).as("due").isEqualTo(past);
                default ->
                    assertWithin("due", at, lo(before) + due.delayMs(), hi(after) + due.delayMs());
              }
              ModelJob next = j.waitingUntil(at, !due.atOnce());
              checkInfo(run, info, next, due.atOnce() ? JobState.READY : JobState.DELAYED, "reply");
              return List.of(w.with(pin(next, info)));
            });
      };
    }

    @Override
    public String toString() {
      return "Reschedule(" + target + " " + due + ")";
    }
  }

  public record Claim(int max, Lease lease) implements Step {
    @Override
    public Action prepare(Run run, World reference) {
      return (queue, client) -> {
        long before = now();
        Result<List<Delivery<byte[]>>> r = Result.of(() -> queue.claim(max, lease.visibility()));
        long after = now();
        run.coverage.label("claim:" + (r.failed() ? outcome(r) : r.value().size()));
        if (!r.failed()) {
          for (Delivery<byte[]> d : r.value()) {
            ModelJob j = reference.job(d.id());
            if (j != null && j.maybeInSlot()) {
              run.coverage.label("claim: a job from a slot list");
            }
          }
        }
        return call(
            client + ": " + this + " -> " + deliveries(r),
            before,
            after,
            run.allPartitions(),
            true,
            () -> claimFacts(run, r, lo(before), hi(after)),
            (w, t) -> claimed(run, w, t, r.get("claim"), lo(before), hi(after)));
      };
    }

    private void claimFacts(Run run, Result<List<Delivery<byte[]>>> r, long lo, long hi) {
      List<Delivery<byte[]>> got = r.get("claim");
      assertThat(got.size()).as("deliveries of claim(%d)", max).isLessThanOrEqualTo(max);
      Set<String> ids = new HashSet<>();
      Set<String> receipts = new HashSet<>();
      for (Delivery<byte[]> d : got) {
        assertThat(ids.add(d.id())).as("%s delivered twice by one claim", d.id()).isTrue();
        assertThat(receipts.add(d.receipt())).as("receipt %s given twice", d.receipt()).isTrue();
        assertThat(d.queue()).isEqualTo(run.queueName);
        assertThat(d.visibility().toMillis())
            .as("visibility of %s", d.id())
            .isEqualTo(lease.millis());
        assertWithin(
            "lease deadline of " + d.id(),
            d.leaseUntil().toEpochMilli(),
            lo + lease.millis(),
            hi + lease.millis());
        assertThat(d.backoff()).as("backoff of %s", d.id()).isEqualTo(BACKOFF);
        assertThat(run.issued(d.id()))
            .as("receipt of a new delivery of %s must be new", d.id())
            .doesNotContain(d.receipt());
      }
      for (Delivery<byte[]> d : got) {
        run.issue(d.id(), d.receipt());
      }
    }

    /**
     * Partition after partition from a rotating first one, each claim (after its catch-up) takes
     * that partition's oldest due ready jobs, as many as are still wanted.
     */
    private List<World> claimed(
        Run run, World w, long[] t, List<Delivery<byte[]>> got, long lo, long hi) {
      List<World> out = new ArrayList<>();
      AssertionError first = null;
      for (int start = 0; start < run.partitions; start++) {
        try {
          out.add(claimedFrom(run, w, t, got, start, lo, hi));
        } catch (AssertionError e) {
          first = first == null ? e : first;
        }
      }
      if (out.isEmpty()) {
        throw first;
      }
      return out;
    }

    private World claimedFrom(
        Run run, World w, long[] t, List<Delivery<byte[]>> got, int start, long lo, long hi) {
      World x = w;
      int taken = 0;
      for (int i = 0; i < run.partitions && taken < max; i++) {
        int p = (start + i) % run.partitions;
        x = x.catchUp(p, t[p], lo, hi, 1).world();
        List<ModelJob> ready = x.readyIn(p, t[p]);
        int k = Math.min(Math.min(max - taken, ready.size()), run.limits.allowance(run, x, p));
        assertThat(got.size())
            .as("deliveries: %d wanted, partition %d has %d ready %s", max, p, ready.size(), ready)
            .isGreaterThanOrEqualTo(taken + k);
        List<Delivery<byte[]>> part = got.subList(taken, taken + k);
        // Highest priority first, then oldest due; jobs of one priority due at the same time may
        // come in any order.
        List<String> wantDues =
            ready.subList(0, k).stream()
                .map(j -> Choices.priorityOf(j.id()) + "@" + j.due())
                .toList();
        List<String> gotDues =
            part.stream().map(d -> d.priority() + "@" + d.dueAt().toEpochMilli()).toList();
        assertThat(gotDues)
            .as("priorities and due times claimed from partition %d, ready %s", p, ready)
            .isEqualTo(wantDues);
        for (Delivery<byte[]> d : part) {
          ModelJob j = x.job(d.id());
          assertThat(ready).as("claimed %s must be ready in partition %d", d.id(), p).contains(j);
          checkDelivery(d, j);
          x =
              x.with(
                      j.leasedUntil(d.receipt(), d.leaseUntil().toEpochMilli())
                          .pinned(d.createdAt().toEpochMilli(), 0))
                  .with(x.counters().plusDelivered());
        }
        taken += k;
      }
      assertThat(got.size()).as("deliveries beyond the ready jobs").isEqualTo(taken);
      return x;
    }

    @Override
    public String toString() {
      return "Claim(" + max + ", " + lease + ")";
    }
  }

  public record Ack(Target target, ReceiptKind receipt) implements Step {
    @Override
    public Action prepare(Run run, World reference) {
      String id = target.resolve(reference);
      String r = receiptFor(run, reference, id, receipt, target.pick());
      return (queue, client) -> {
        long before = now();
        Result<Void> res = Result.ofVoid(() -> queue.ack(id, r));
        long after = now();
        run.coverage.label("ack:" + outcome(res));
        return call(
            client + ": Ack(" + id + ", " + receipt + " " + r + ") -> " + res,
            before,
            after,
            new int[] {run.partitionOf(id)},
            false,
            () -> {},
            (w, t) -> {
              switch (leaseCheck(w, id, r)) {
                case OK -> {
                  res.get("ack");
                  return List.of(w.without(id).with(w.counters().plusAcked()));
                }
                case STALE -> res.fails(StaleReceiptException.class, run, id, "ack");
                case NOT_FOUND -> res.fails(JobNotFoundException.class, run, id, "ack");
              }
              return List.of(w);
            });
      };
    }

    @Override
    public String toString() {
      return "Ack(" + target + ", " + receipt + ")";
    }
  }

  public record NackStep(Target target, ReceiptKind receipt, Fail fail) implements Step {
    @Override
    public Action prepare(Run run, World reference) {
      String id = target.resolve(reference);
      String r = receiptFor(run, reference, id, receipt, target.pick());
      String error = run.step() % 3 == 0 ? "" : "failed at step " + run.step();
      Nack nack = fail.nack(error);
      return (queue, client) -> {
        long before = now();
        Result<NackResult> res = Result.of(() -> queue.nack(id, r, nack));
        long after = now();
        run.coverage.label("nack " + fail.kind() + ":" + outcome(res));
        return call(
            client + ": Nack(" + id + ", " + receipt + " " + r + ", " + fail + ") -> " + res,
            before,
            after,
            new int[] {run.partitionOf(id)},
            false,
            () -> {},
            (w, t) -> {
              switch (leaseCheck(w, id, r)) {
                case OK -> {
                  return List.of(nacked(w, id, error, res, lo(before), hi(after)));
                }
                case STALE -> res.fails(StaleReceiptException.class, run, id, "nack");
                case NOT_FOUND -> res.fails(JobNotFoundException.class, run, id, "nack");
              }
              return List.of(w);
            });
      };
    }

    private World nacked(
        World w, String id, String error, Result<NackResult> res, long lo, long hi) {
      ModelJob j = w.job(id).failed(error);
      NackResult result = res.get("nack of " + w.job(id));
      long at = result.at().toEpochMilli();
      if (fail.kind() == FailKind.KILL || j.attempts() >= j.maxAttempts()) {
        assertThat(result.dead())
            .as("nack %s of attempt %d/%d goes dead", fail, j.attempts(), j.maxAttempts())
            .isTrue();
        assertWithin("time of death", at, lo, hi);
        return w.with(j.diedBetween(at, at)).with(w.counters().plusKilled());
      }
      assertThat(result.dead())
          .as("nack %s of attempt %d/%d retries", fail, j.attempts(), j.maxAttempts())
          .isFalse();
      long delay = fail.delayMs();
      assertWithin("retry due", at, lo + delay, hi + delay);
      return w.with(j.waitingUntil(at, delay > 0)).with(w.counters().plusRetried());
    }

    @Override
    public String toString() {
      return "Nack(" + target + ", " + receipt + ", " + fail + ")";
    }
  }

  public record Extend(Target target, ReceiptKind receipt, Lease lease) implements Step {
    @Override
    public Action prepare(Run run, World reference) {
      String id = target.resolve(reference);
      String r = receiptFor(run, reference, id, receipt, target.pick());
      return (queue, client) -> {
        long before = now();
        Result<Instant> res = Result.of(() -> queue.extend(id, r, lease.visibility()));
        long after = now();
        run.coverage.label("extend:" + outcome(res));
        return call(
            client + ": Extend(" + id + ", " + receipt + " " + r + ", " + lease + ") -> " + res,
            before,
            after,
            new int[] {run.partitionOf(id)},
            false,
            () -> {},
            (w, t) -> {
              switch (leaseCheck(w, id, r)) {
                case OK -> {
                  long until = res.get("extend").toEpochMilli();
                  assertWithin(
                      "extended lease",
                      until,
                      lo(before) + lease.millis(),
                      hi(after) + lease.millis());
                  return List.of(w.with(w.job(id).withLeaseUntil(until)));
                }
                case STALE -> res.fails(StaleReceiptException.class, run, id, "extend");
                case NOT_FOUND -> res.fails(JobNotFoundException.class, run, id, "extend");
              }
              return List.of(w);
            });
      };
    }

    @Override
    public String toString() {
      return "Extend(" + target + ", " + receipt + ", " + lease + ")";
    }
  }

  /** One promoter pass over every partition ({@link Promotions#now}). */
  public record Promote() implements Step {
    @Override
    public Action prepare(Run run, World reference) {
      return (queue, client) -> {
        long before = now();
        Result<Long> r = Result.of(() -> Promotions.now(queue));
        long after = now();
        run.coverage.label("promote:" + outcome(r));
        return call(
            client + ": Promote -> " + r,
            before,
            after,
            run.allPartitions(),
            true,
            () -> {},
            (w, t) -> promoted(run, w, t, client, r.get("promote"), lo(before), hi(after)));
      };
    }

    /**
     * Partition by partition: a pass refused by another client's live lock does nothing; a pass
     * that takes the lock catches up with the slot width as lookahead and reports the lapsed leases
     * it returned to ready, plus the jobs already due when their slot list was loaded (whether a
     * job waited in a slot list or in near is a storage detail the model only bounds).
     */
    private static List<World> promoted(
        Run run, World w, long[] t, String owner, long moved, long lo, long hi) {
      record Branch(World world, long min, long max) {}
      List<Branch> branches = List.of(new Branch(w, 0, 0));
      for (int p = 0; p < run.partitions; p++) {
        List<Branch> next = new ArrayList<>();
        for (Branch b : branches) {
          World.Lock lock = b.world().locks().get(p);
          boolean other = lock != null && !lock.owner().equals(owner);
          boolean mayBeRefused = other && lock.untilHi() > t[p];
          boolean mayTake = !other || lock.untilLo() <= t[p];
          if (mayBeRefused) {
            next.add(b);
          }
          if (mayTake) {
            World.CaughtUp c = b.world().catchUp(p, t[p], lo, hi, run.slotWidthMs);
            World x = c.world().withLock(p, renewed(lock, owner, t[p], lo, hi));
            next.add(
                new Branch(
                    x,
                    b.min() + c.leasesBackToReady(),
                    b.max() + c.leasesBackToReady() + c.dueInSlotsAtMost()));
          }
        }
        branches = next;
      }
      List<World> out = new ArrayList<>();
      StringBuilder expected = new StringBuilder();
      for (Branch b : branches) {
        if (b.min() <= moved && moved <= b.max()) {
          out.add(b.world());
        }
        expected.append(b.min() == b.max() ? "" + b.min() : b.min() + ".." + b.max()).append(' ');
      }
      assertThat(out)
          .as("promote() reported %d made ready; the model expects %s", moved, expected)
          .isNotEmpty();
      return out;
    }

    /**
     * The lock after a pass that took it at a server time of at least {@code t}, within [lo, hi]: a
     * lock of another owner (lapsed) or none is taken afresh; the owner's own is renewed when less
     * than half of it is left.
     */
    private static World.Lock renewed(World.Lock lock, String owner, long t, long lo, long hi) {
      World.Lock fresh = new World.Lock(owner, lo + PROMOTER_LOCK_MS, hi + PROMOTER_LOCK_MS);
      if (lock == null || !lock.owner().equals(owner)) {
        return fresh;
      }
      if (lock.untilHi() - t < PROMOTER_LOCK_MS / 2) {
        return fresh;
      }
      if (lock.untilLo() - hi >= PROMOTER_LOCK_MS / 2) {
        return lock;
      }
      return new World.Lock(
          owner,
          Math.min(lock.untilLo(), fresh.untilLo()),
          Math.max(lock.untilHi(), fresh.untilHi()));
    }

    @Override
    public String toString() {
      return "Promote";
    }
  }

  public record Requeue(Target target) implements Step {
    @Override
    public Action prepare(Run run, World reference) {
      String id = target.resolve(reference);
      return (queue, client) -> {
        long before = now();
        Result<Void> r = Result.ofVoid(() -> queue.dead().requeue(id));
        long after = now();
        // Requeue answers nothing; its new due time is read right after.
        Optional<JobInfo<byte[]>> read = r.failed() ? Optional.empty() : queue.get(id);
        run.coverage.label("requeue:" + outcome(r));
        return call(
            client
                + ": Requeue("
                + id
                + ") -> "
                + r
                + read.map(i -> ", due " + dueOf(i)).orElse(""),
            before,
            after,
            new int[] {run.partitionOf(id)},
            false,
            () -> {},
            (w, t) -> {
              ModelJob j = w.job(id);
              // A live job that is not dead is refused with its state, which is read after the
              // requeue found no dead job: a ttl running out in between makes it not found.
              if (j == null
                  || (!j.dead()
                      && r.error() instanceof JobNotFoundException
                      && j.expiredAt(hi(after)))) {
                r.fails(JobNotFoundException.class, run, id, "requeue of " + (j == null ? id : j));
                return List.of(w);
              }
              if (!j.dead()) {
                r.fails(
                    JobStateException.class,
                    run,
                    id,
                    "requeue of " + j,
                    e -> assertThat(e.state()).isNotEqualTo(JobState.DEAD));
                return List.of(w);
              }
              r.get("requeue of " + j);
              return List.of(requeued(run, w, j, read, lo(before), hi(after)));
            });
      };
    }

    @Override
    public String toString() {
      return "Requeue(" + target + ")";
    }
  }

  public record RequeueAll() implements Step {
    @Override
    public Action prepare(Run run, World reference) {
      return (queue, client) -> {
        long before = now();
        Result<Long> r = Result.of(() -> queue.dead().requeueAll());
        long after = now();
        Map<String, Optional<JobInfo<byte[]>>> reads = new LinkedHashMap<>();
        if (!r.failed()) {
          for (String id : IDS) {
            reads.put(id, queue.get(id));
          }
        }
        run.coverage.label("requeueAll:" + outcome(r));
        return call(
            client + ": RequeueAll -> " + r,
            before,
            after,
            run.allPartitions(),
            false,
            () -> {},
            (w, t) -> {
              List<ModelJob> dead = w.jobs().values().stream().filter(ModelJob::dead).toList();
              assertThat(r.get("requeueAll"))
                  .as("requeueAll count, dead %s", dead)
                  .isEqualTo(dead.size());
              World x = w;
              for (ModelJob j : dead) {
                x = requeued(run, x, j, reads.get(j.id()), lo(before), hi(after));
              }
              return List.of(x);
            });
      };
    }

    @Override
    public String toString() {
      return "RequeueAll";
    }
  }

  public record Purge() implements Step {
    @Override
    public Action prepare(Run run, World reference) {
      return (queue, client) -> {
        long before = now();
        Result<Long> r = Result.of(() -> queue.dead().purge());
        long after = now();
        run.coverage.label("purge:" + outcome(r));
        return call(
            client + ": Purge -> " + r,
            before,
            after,
            run.allPartitions(),
            false,
            () -> {},
            (w, t) -> {
              List<ModelJob> dead = w.jobs().values().stream().filter(ModelJob::dead).toList();
              assertThat(r.get("purge")).as("purge count, dead %s", dead).isEqualTo(dead.size());
              World x = w;
              for (ModelJob j : dead) {
                x = x.without(j.id());
              }
              return List.of(x);
            });
      };
    }

    @Override
    public String toString() {
      return "Purge";
    }
  }

  /** Which of the model's coming events a {@link Wait} waits for. */
  public enum WaitFor {
    /** Whichever comes first. */
    ANY,
    /** A lease deadline. */
    LEASE,
    /** A waiting job's due time. */
    DUE,
    /** A ttl. */
    TTL
  }

  /**
   * Waits for the clock until the model's next event of a kind (a job falls due, a lease deadline
   * or a ttl passes) is past on the server clock, so that the steps after it see it past; no wait
   * when none comes within {@value #MAX_WAIT_MS} ms. Sleeping is the point here: it waits for a
   * known time of the clock Redis shares with this JVM, not for a condition another thread makes
   * true.
   */
  public record Wait(WaitFor what) implements Step {
    @Override
    public Action prepare(Run run, World reference) {
      long now = now();
      TreeSet<Long> events = new TreeSet<>();
      for (ModelJob j : reference.jobs().values()) {
        if (j.waiting() && j.due() > now && (what == WaitFor.ANY || what == WaitFor.DUE)) {
          events.add(j.due());
        }
        if (j.leased() && j.leaseUntil() > now && (what == WaitFor.ANY || what == WaitFor.LEASE)) {
          events.add(j.leaseUntil());
        }
        if (j.expireAt() > now && (what == WaitFor.ANY || what == WaitFor.TTL)) {
          events.add(j.expireAt());
        }
      }
      return (queue, client) -> {
        if (events.isEmpty() || events.first() - now > MAX_WAIT_MS) {
          run.log("   (nothing of the kind falls due soon: no wait)");
          run.coverage.label("wait " + what + ": none");
          return null;
        }
        long until = events.first() + Checker.TOLERANCE_MS + 1;
        sleepPast(until);
        run.log("   (waited " + (until - now) + " ms, past " + events.first() + ")");
        run.coverage.label("wait " + what);
        return null;
      };
    }

    @Override
    public String toString() {
      return "Wait(" + what + ")";
    }
  }
}
