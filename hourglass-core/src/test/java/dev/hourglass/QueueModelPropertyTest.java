package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.embedded.RedisServer;
import dev.hourglass.internal.Keys;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * Model-based test of {@link Queue}: random sequences of every operation on a small pool of ids,
 * each checked against a plain in-memory model of the documented semantics (script headers,
 * javadoc, DESIGN.md invariants).
 *
 * <p>After every step: the operation's reply or typed exception matches the model, {@code get} of
 * every id in the pool matches the model's job (state, attempts, due time, lease, payload, last
 * error), {@code stats()} counts and counters match, and the dead-letter listing holds exactly the
 * model's dead jobs.
 *
 * <p>Timing is made deterministic: the client has no background promoter, so only {@link
 * Queue#promote()} returns expired leases. Jobs are due now (straight to ready), in the past
 * (ready), far ahead (1 h, in a slot list, never due in a test) or soon ({@value #SOON_MS} ms, in
 * near, where a job turns ready when its due time passes, no promoter needed). Every step first
 * sleeps until each soon job is due, so the model knows which jobs are ready; only the checks right
 * after the step that created a soon job accept either state when its due time is that close.
 * Leases are long (1 h) or short ({@value #SHORT_LEASE_MS} ms); a promote step first sleeps until
 * every short lease has passed on the clock Redis shares with this JVM, so the model knows exactly
 * what the pass returns.
 *
 * <p>jqwik runs its own engine, which does not apply JUnit Jupiter extensions, so the test starts
 * its {@link RedisServer} in a container hook instead of through {@code RedisExtension}.
 */
class QueueModelPropertyTest {
  static final List<String> IDS = List.of("j0", "j1", "j2", "j3", "j4", "j5");
  static final long SOON_MS = 20;
  static final long SHORT_LEASE_MS = 25;
  static final Duration SOON = Duration.ofMillis(SOON_MS);
  static final Duration FAR = Duration.ofHours(1);
  static final Duration SHORT_LEASE = Duration.ofMillis(SHORT_LEASE_MS);
  static final Duration LONG_LEASE = Duration.ofHours(1);

  /**
   * Slack between the JVM clock read around a call and the Redis TIME read inside it (same host
   * clock).
   */
  static final long TOLERANCE_MS = 25;

  private static RedisServer server;
  private static Hourglass hourglass;
  private static final AtomicInteger queueNumbers = new AtomicInteger();

  @BeforeContainer
  static void startRedis() {
    server = RedisServer.create();
    server.start();
    hourglass = Hourglass.builder().redisUri(server.uri()).backgroundPromoter(false).build();
  }

  @AfterContainer
  static void stopRedis() {
    if (hourglass != null) {
      hourglass.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Property(tries = 200, shrinking = ShrinkingMode.BOUNDED, edgeCases = EdgeCasesMode.NONE)
  void queueFollowsTheModel(
      @ForAll("scenarios") List<Step> steps, @ForAll @IntRange(min = 1, max = 2) int partitions) {
    server.flushAll();
    // A fresh queue name per try: the client caches each queue's layout, and a flushed queue must
    // not be reused.
    String name = "model-" + queueNumbers.incrementAndGet();
    Queue queue =
        hourglass.configureQueue(
            name, QueueSettings.builder().partitions(partitions).pools(4).build());
    Run run = new Run(queue, partitions);
    run.checkAll();
    for (Step step : steps) {
      run.step++;
      run.log.append(run.step).append(". ").append(step).append('\n');
      try {
        run.settle();
        step.apply(run);
        run.checkAll();
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(
            "step "
                + run.step
                + " ("
                + step
                + ") failed: "
                + e
                + "\nsteps so far:\n"
                + run.log
                + "model: "
                + run.jobs,
            e);
      }
    }
  }

  /**
   * Found by the property (Extend SHORT, then Promote): a lease shortened by {@code extend} must
   * lapse at its new deadline. Minimal form of that counterexample.
   */
  @Example
  void aShortenedLeaseComesBackAtItsNewDeadline() {
    server.flushAll();
    Queue queue = hourglass.queue("shortened-" + queueNumbers.incrementAndGet());
    queue.enqueue(JobSpec.builder().id("j").payload("x").maxAttempts(2).build());
    Delivery delivery = queue.claim(1, LONG_LEASE).get(0);
    Instant until = queue.extend("j", delivery.receipt(), SHORT_LEASE);
    sleepPast(until.toEpochMilli() + 1);

    assertThat(queue.promote()).as("expired leases promote() returns to ready").isEqualTo(1);
    JobInfo job = queue.get("j").orElseThrow();
    assertThat(job.state()).isEqualTo(JobState.READY);
    assertThat(job.attempts()).isEqualTo(1);
  }

  /**
   * {@link Queue#promote()} deletes "dead jobs past retention"; retention lowered by {@link
   * Hourglass#configureQueue} must apply on the next pass, not when the old retention would have.
   */
  @Example
  void loweredDeadRetentionAppliesOnTheNextPromote() {
    server.flushAll();
    String name = "retention-" + queueNumbers.incrementAndGet();
    Queue queue = hourglass.queue(name);
    for (String id : List.of("d1", "d2", "d3")) {
      queue.enqueue(JobSpec.builder().id(id).payload(id).build());
    }
    for (Delivery d : queue.claim(3, LONG_LEASE)) {
      queue.nack(d.id(), d.receipt(), Nack.kill("no"));
    }
    queue.promote();
    assertThat(queue.dead().count()).isEqualTo(3);

    hourglass.configureQueue(name, queue.settings().toBuilder().deadMaxCount(1).build());
    queue.promote();

    assertThat(queue.dead().count()).as("dead jobs kept with deadMaxCount 1").isEqualTo(1);
  }

  // ---- generators ----

  @Provide
  Arbitrary<List<Step>> scenarios() {
    Arbitrary<Integer> pick = Arbitraries.integers().between(0, 999);
    Arbitrary<Integer> idIndex = Arbitraries.integers().between(0, IDS.size() - 1);
    Arbitrary<DueKind> due = Arbitraries.of(DueKind.class);
    Arbitrary<Target> anyTarget =
        Combinators.combine(pick, Arbitraries.of(Prefer.class)).as(Target::new);
    Arbitrary<Target> leasedTarget =
        Combinators.combine(
                pick, Arbitraries.frequency(Tuple.of(5, Prefer.INFLIGHT), Tuple.of(1, Prefer.ANY)))
            .as(Target::new);
    Arbitrary<Target> deadTarget =
        Combinators.combine(
                pick, Arbitraries.frequency(Tuple.of(4, Prefer.DEAD), Tuple.of(1, Prefer.ANY)))
            .as(Target::new);
    Arbitrary<ReceiptKind> receipt =
        Arbitraries.frequency(
            Tuple.of(8, ReceiptKind.CURRENT),
            Tuple.of(2, ReceiptKind.OLD),
            Tuple.of(1, ReceiptKind.OTHER_JOB),
            Tuple.of(1, ReceiptKind.BOGUS));

    Arbitrary<Step> enqueue =
        Combinators.combine(
                idIndex, due, Arbitraries.integers().between(1, 3), Arbitraries.of(true, false))
            .as(Enqueue::new);
    Arbitrary<Step> enqueueAll =
        Combinators.combine(idIndex, due)
            .as(Item::new)
            .list()
            .ofMinSize(1)
            .ofMaxSize(3)
            .map(EnqueueAll::new);
    Arbitrary<Step> cancel = anyTarget.map(Cancel::new);
    Arbitrary<Step> reschedule = Combinators.combine(anyTarget, due).as(Reschedule::new);
    Arbitrary<Step> claim =
        Combinators.combine(Arbitraries.integers().between(1, 3), Arbitraries.of(LeaseKind.class))
            .as(Claim::new);
    Arbitrary<Step> ack = Combinators.combine(leasedTarget, receipt).as(Ack::new);
    Arbitrary<Step> nack =
        Combinators.combine(leasedTarget, receipt, Arbitraries.of(FailKind.class))
            .as(NackStep::new);
    Arbitrary<Step> extend =
        Combinators.combine(leasedTarget, receipt, Arbitraries.of(LeaseKind.SHORT, LeaseKind.LONG))
            .as(Extend::new);
    Arbitrary<Step> promote = Arbitraries.just(new Promote());
    Arbitrary<Step> requeue = deadTarget.map(Requeue::new);
    Arbitrary<Step> requeueAll = Arbitraries.just(new RequeueAll());
    Arbitrary<Step> purge = Arbitraries.just(new Purge());

    return Arbitraries.<Step>frequencyOf(
            Tuple.of(8, enqueue),
            Tuple.of(2, enqueueAll),
            Tuple.of(2, cancel),
            Tuple.of(3, reschedule),
            Tuple.of(8, claim),
            Tuple.of(4, ack),
            Tuple.of(5, nack),
            Tuple.of(2, extend),
            Tuple.of(4, promote),
            Tuple.of(2, requeue),
            Tuple.of(1, requeueAll),
            Tuple.of(1, purge))
        .list()
        .ofMinSize(10)
        .ofMaxSize(30)
        .withSizeDistribution(RandomDistribution.uniform());
  }

  // ---- the vocabulary of steps ----

  /** When a job is due. */
  enum DueKind {
    /** No delay: due at the server's now, straight to ready. */
    NOW,
    /** An explicit zero delay (or, for reschedule, the client's now as an absolute time). */
    ZERO,
    /** An absolute time 5 s in the past. */
    PAST,
    /** {@value #SOON_MS} ms ahead: delayed until a promote pass after that. */
    SOON,
    /** 1 h ahead: delayed for the whole test. */
    FAR;

    boolean dueAtOnce() {
      return this == NOW || this == ZERO || this == PAST;
    }
  }

  enum LeaseKind {
    SHORT,
    LONG,
    /** No visibility on the claim: the job's own (1 h). */
    JOB_DEFAULT;

    Duration visibility() {
      return switch (this) {
        case SHORT -> SHORT_LEASE;
        case LONG -> LONG_LEASE;
        case JOB_DEFAULT -> null;
      };
    }
  }

  /** Which receipt an ack, nack or extend presents. */
  enum ReceiptKind {
    /** The job's current receipt (or its last one, when it is not leased). */
    CURRENT,
    /** A receipt of an earlier delivery of this id. */
    OLD,
    /** The current receipt of another leased job. */
    OTHER_JOB,
    /** A receipt no claim issued. */
    BOGUS
  }

  enum FailKind {
    RETRY_NOW,
    RETRY_SOON,
    RETRY_FAR,
    /** Retry by the job's backoff: fixed 1 h. */
    BACKOFF,
    KILL
  }

  enum Prefer {
    ANY,
    DELAYED,
    READY,
    INFLIGHT,
    DEAD
  }

  /** Picks an id: one in the preferred model state if any, else any id of the pool. */
  record Target(int pick, Prefer prefer) {
    String resolve(Run run) {
      if (prefer != Prefer.ANY) {
        JobState state = JobState.valueOf(prefer.name());
        List<String> in = run.idsIn(state);
        if (!in.isEmpty()) {
          return in.get(pick % in.size());
        }
      }
      return IDS.get(pick % IDS.size());
    }

    @Override
    public String toString() {
      return prefer == Prefer.ANY ? "id#" + pick : prefer.name().toLowerCase() + "#" + pick;
    }
  }

  record Item(int id, DueKind due) {
    @Override
    public String toString() {
      return IDS.get(id) + "@" + due;
    }
  }

  interface Step {
    void apply(Run run);
  }

  record Enqueue(int id, DueKind due, int maxAttempts, boolean ifAbsent) implements Step {
    @Override
    public void apply(Run run) {
      String jobId = IDS.get(id);
      Run.Spec spec = run.spec(jobId, due, maxAttempts);
      MJob existing = run.jobs.get(jobId);
      long before = now();
      if (existing != null) {
        if (ifAbsent) {
          EnqueueResult r = run.queue.enqueueIfAbsent(spec.spec());
          run.checkDuplicate(r, existing);
          Statistics.label("step").collect("enqueueIfAbsent:duplicate");
        } else {
          assertThatThrownBy(() -> run.queue.enqueue(spec.spec()))
              .isInstanceOfSatisfying(
                  DuplicateJobException.class, e -> assertThat(e.id()).isEqualTo(jobId));
          Statistics.label("step").collect("enqueue:duplicate");
        }
        return;
      }
      EnqueueResult r =
          ifAbsent ? run.queue.enqueueIfAbsent(spec.spec()) : run.queue.enqueue(spec.spec());
      run.created(r, spec, before, now());
      Statistics.label("step").collect("enqueue:" + due);
    }
  }

  record EnqueueAll(List<Item> items) implements Step {
    @Override
    public void apply(Run run) {
      List<Run.Spec> specs = new ArrayList<>();
      for (Item item : items) {
        specs.add(run.spec(IDS.get(item.id()), item.due(), 2));
      }
      long before = now();
      List<EnqueueResult> results =
          run.queue.enqueueAll(specs.stream().map(Run.Spec::spec).toList());
      long after = now();
      assertThat(results).hasSize(items.size());
      // Jobs of one batch are applied in request order: a later duplicate of an earlier item is
      // refused.
      for (int i = 0; i < items.size(); i++) {
        Run.Spec spec = specs.get(i);
        EnqueueResult r = results.get(i);
        assertThat(r.id()).isEqualTo(spec.id());
        MJob existing = run.jobs.get(spec.id());
        if (existing != null) {
          run.checkDuplicate(r, existing);
        } else {
          run.created(r, spec, before, after);
        }
      }
      Statistics.label("step").collect("enqueueAll");
    }
  }

  record Cancel(Target target) implements Step {
    @Override
    public void apply(Run run) {
      String id = target.resolve(run);
      MJob job = run.jobs.get(id);
      if (job == null) {
        assertThat(run.queue.cancel(id)).as("cancel of absent %s", id).isFalse();
        Statistics.label("step").collect("cancel:absent");
      } else if (job.state == JobState.INFLIGHT) {
        assertThatThrownBy(() -> run.queue.cancel(id))
            .isInstanceOfSatisfying(
                JobStateException.class, e -> assertThat(e.state()).isEqualTo(JobState.INFLIGHT));
        Statistics.label("step").collect("cancel:inflight");
      } else {
        assertThat(run.queue.cancel(id)).as("cancel of %s %s", job.state, id).isTrue();
        run.jobs.remove(id);
        run.cancelled++;
        Statistics.label("step").collect("cancel:" + job.state);
      }
    }
  }

  record Reschedule(Target target, DueKind due) implements Step {
    @Override
    public void apply(Run run) {
      String id = target.resolve(run);
      MJob job = run.jobs.get(id);
      long before = now();
      long past = before - 5_000;
      Runnable call =
          () -> {
            JobInfo info =
                switch (due) {
                  case NOW -> run.queue.reschedule(id, Duration.ZERO);
                  case ZERO -> run.queue.reschedule(id, Instant.ofEpochMilli(before));
                  case PAST -> run.queue.reschedule(id, Instant.ofEpochMilli(past));
                  case SOON -> run.queue.reschedule(id, SOON);
                  case FAR -> run.queue.reschedule(id, FAR);
                };
            long after = now();
            JobState expected = due.dueAtOnce() ? JobState.READY : JobState.DELAYED;
            assertThat(info.state()).as("state after reschedule").isEqualTo(expected);
            long dueMs = info.runAt().toEpochMilli();
            switch (due) {
              case NOW -> assertWithin("due", dueMs, before, after);
              case ZERO -> assertThat(dueMs).as("due").isEqualTo(before);
              case PAST -> assertThat(dueMs).as("due").isEqualTo(past);
              case SOON -> assertWithin("due", dueMs, before + SOON_MS, after + SOON_MS);
              case FAR ->
                  assertWithin("due", dueMs, before + FAR.toMillis(), after + FAR.toMillis());
            }
            job.state = expected;
            job.due = dueMs;
          };
      if (job == null) {
        assertThatThrownBy(call::run).isInstanceOf(JobNotFoundException.class);
        Statistics.label("step").collect("reschedule:absent");
      } else if (job.state == JobState.INFLIGHT || job.state == JobState.DEAD) {
        JobState refused = job.state;
        assertThatThrownBy(call::run)
            .isInstanceOfSatisfying(
                JobStateException.class, e -> assertThat(e.state()).isEqualTo(refused));
        Statistics.label("step").collect("reschedule:" + refused);
      } else {
        JobState from = job.state;
        call.run();
        Statistics.label("step").collect("reschedule:" + from + "->" + due);
      }
    }
  }

  record Claim(int max, LeaseKind lease) implements Step {
    @Override
    public void apply(Run run) {
      Duration visibility = lease.visibility();
      long leaseMs = visibility == null ? LONG_LEASE.toMillis() : visibility.toMillis();
      List<String> readyBefore = run.idsIn(JobState.READY);
      long before = now();
      List<Delivery> got = run.queue.claim(max, visibility);
      long after = now();
      assertThat(got)
          .as("deliveries of claim(%d) with ready %s", max, readyBefore)
          .hasSize(Math.min(max, readyBefore.size()));
      Set<String> claimed = new HashSet<>();
      for (Delivery d : got) {
        assertThat(claimed.add(d.id())).as("%s delivered twice by one claim", d.id()).isTrue();
        assertThat(readyBefore).as("claimed job must have been ready").contains(d.id());
      }
      run.checkClaimOrder(got, readyBefore);
      for (Delivery d : got) {
        MJob job = run.jobs.get(d.id());
        assertThat(d.queue()).isEqualTo(run.queue.name());
        assertThat(d.attempt()).as("attempt of %s", d.id()).isEqualTo(job.attempts + 1);
        assertThat(d.maxAttempts()).as("maxAttempts of %s", d.id()).isEqualTo(job.maxAttempts);
        assertThat(d.dueAt().toEpochMilli()).as("dueAt of %s", d.id()).isEqualTo(job.due);
        assertThat(d.payloadAsString()).as("payload of %s", d.id()).isEqualTo(job.payload);
        assertThat(d.lastError()).as("lastError of %s", d.id()).isEqualTo(job.lastError());
        assertThat(d.visibility().toMillis()).as("visibility of %s", d.id()).isEqualTo(leaseMs);
        assertWithin(
            "leaseUntil of " + d.id(),
            d.leaseUntil().toEpochMilli(),
            before + leaseMs,
            after + leaseMs);
        List<String> issued = run.receipts.computeIfAbsent(d.id(), k -> new ArrayList<>());
        assertThat(issued)
            .as("receipt of a new delivery of %s must be new", d.id())
            .doesNotContain(d.receipt());
        issued.add(d.receipt());
        job.state = JobState.INFLIGHT;
        job.receipt = d.receipt();
        job.leaseUntil = d.leaseUntil().toEpochMilli();
      }
      Statistics.label("step").collect("claim:" + got.size());
    }
  }

  record Ack(Target target, ReceiptKind receipt) implements Step {
    @Override
    public void apply(Run run) {
      String id = target.resolve(run);
      String r = run.receiptFor(id, receipt, target.pick());
      Outcome expected = run.leaseCheck(id, r);
      switch (expected) {
        case OK -> {
          run.queue.ack(id, r);
          run.jobs.remove(id);
          run.acked++;
        }
        case STALE ->
            assertThatThrownBy(() -> run.queue.ack(id, r))
                .isInstanceOf(StaleReceiptException.class);
        case NOT_FOUND ->
            assertThatThrownBy(() -> run.queue.ack(id, r)).isInstanceOf(JobNotFoundException.class);
      }
      Statistics.label("step").collect("ack:" + expected);
    }
  }

  record NackStep(Target target, ReceiptKind receipt, FailKind fail) implements Step {
    @Override
    public void apply(Run run) {
      String id = target.resolve(run);
      String r = run.receiptFor(id, receipt, target.pick());
      String error = run.step % 3 == 0 ? "" : "failed at step " + run.step;
      Nack nack =
          switch (fail) {
            case RETRY_NOW -> Nack.retryAfter(Duration.ZERO, error);
            case RETRY_SOON -> Nack.retryAfter(SOON, error);
            case RETRY_FAR -> Nack.retryAfter(FAR, error);
            case BACKOFF -> Nack.retry(error);
            case KILL -> Nack.kill(error);
          };
      Outcome expected = run.leaseCheck(id, r);
      switch (expected) {
        case STALE ->
            assertThatThrownBy(() -> run.queue.nack(id, r, nack))
                .isInstanceOf(StaleReceiptException.class);
        case NOT_FOUND ->
            assertThatThrownBy(() -> run.queue.nack(id, r, nack))
                .isInstanceOf(JobNotFoundException.class);
        case OK -> {
          MJob job = run.jobs.get(id);
          long before = now();
          NackResult result = run.queue.nack(id, r, nack);
          long after = now();
          job.attempts++;
          job.lastError = error;
          job.receipt = null;
          job.leaseUntil = 0;
          long at = result.at().toEpochMilli();
          if (fail == FailKind.KILL || job.attempts >= job.maxAttempts) {
            assertThat(result.dead())
                .as("nack %s of attempt %d/%d goes dead", fail, job.attempts, job.maxAttempts)
                .isTrue();
            assertWithin("time of death", at, before, after);
            job.state = JobState.DEAD;
            run.killed++;
            Statistics.label("step").collect("nack:dead");
            return;
          }
          assertThat(result.dead())
              .as("nack %s of attempt %d/%d retries", fail, job.attempts, job.maxAttempts)
              .isFalse();
          long delay =
              switch (fail) {
                case RETRY_NOW -> 0;
                case RETRY_SOON -> SOON_MS;
                default -> FAR.toMillis();
              };
          assertWithin("retry due", at, before + delay, after + delay);
          job.state = fail == FailKind.RETRY_NOW ? JobState.READY : JobState.DELAYED;
          job.due = at;
          run.retried++;
        }
      }
      Statistics.label("step")
          .collect("nack:" + expected + (expected == Outcome.OK ? ":" + fail : ""));
    }
  }

  record Extend(Target target, ReceiptKind receipt, LeaseKind lease) implements Step {
    @Override
    public void apply(Run run) {
      String id = target.resolve(run);
      String r = run.receiptFor(id, receipt, target.pick());
      Duration visibility = lease.visibility();
      Outcome expected = run.leaseCheck(id, r);
      switch (expected) {
        case STALE ->
            assertThatThrownBy(() -> run.queue.extend(id, r, visibility))
                .isInstanceOf(StaleReceiptException.class);
        case NOT_FOUND ->
            assertThatThrownBy(() -> run.queue.extend(id, r, visibility))
                .isInstanceOf(JobNotFoundException.class);
        case OK -> {
          long before = now();
          Instant until = run.queue.extend(id, r, visibility);
          long after = now();
          assertWithin(
              "extended lease",
              until.toEpochMilli(),
              before + visibility.toMillis(),
              after + visibility.toMillis());
          run.jobs.get(id).leaseUntil = until.toEpochMilli();
        }
      }
      Statistics.label("step").collect("extend:" + expected);
    }
  }

  /** Waits until every short lease has passed, then runs one promotion pass. */
  record Promote() implements Step {
    @Override
    public void apply(Run run) {
      long horizon = now() + 60_000;
      long latest = Long.MIN_VALUE;
      for (MJob job : run.jobs.values()) {
        if (job.state == JobState.INFLIGHT && job.leaseUntil <= horizon) {
          latest = Math.max(latest, job.leaseUntil);
        }
      }
      if (latest != Long.MIN_VALUE) {
        sleepPast(latest + 1);
      }
      long moved = run.queue.promote();
      long expectedMoved = 0;
      int expiredToDead = 0;
      for (MJob job : run.jobs.values()) {
        if (job.state == JobState.INFLIGHT && job.leaseUntil <= latest) {
          job.attempts++;
          job.lastError = "lease expired";
          job.receipt = null;
          job.leaseUntil = 0;
          if (job.attempts >= job.maxAttempts) {
            job.state = JobState.DEAD;
            run.killed++;
            expiredToDead++;
          } else {
            job.state = JobState.READY;
            run.retried++;
            expectedMoved++;
          }
        }
      }
      assertThat(moved).as("jobs promote() reports made ready").isEqualTo(expectedMoved);
      Statistics.label("step")
          .collect("promote:moved=" + expectedMoved + ",expiredToDead=" + expiredToDead);
    }

    @Override
    public String toString() {
      return "Promote";
    }
  }

  record Requeue(Target target) implements Step {
    @Override
    public void apply(Run run) {
      String id = target.resolve(run);
      MJob job = run.jobs.get(id);
      if (job == null || job.state != JobState.DEAD) {
        assertThatThrownBy(() -> run.queue.dead().requeue(id))
            .isInstanceOf(JobNotFoundException.class);
        Statistics.label("step").collect("requeue:not-dead");
        return;
      }
      long before = now();
      run.queue.dead().requeue(id);
      run.requeued(job, id, before, now());
      Statistics.label("step").collect("requeue:dead");
    }
  }

  record RequeueAll() implements Step {
    @Override
    public void apply(Run run) {
      List<String> dead = run.idsIn(JobState.DEAD);
      long before = now();
      long n = run.queue.dead().requeueAll();
      long after = now();
      assertThat(n).as("requeueAll count").isEqualTo(dead.size());
      for (String id : dead) {
        run.requeued(run.jobs.get(id), id, before, after);
      }
      Statistics.label("step").collect("requeueAll:" + n);
    }

    @Override
    public String toString() {
      return "RequeueAll";
    }
  }

  record Purge() implements Step {
    @Override
    public void apply(Run run) {
      List<String> dead = run.idsIn(JobState.DEAD);
      assertThat(run.queue.dead().purge()).as("purge count").isEqualTo(dead.size());
      dead.forEach(run.jobs::remove);
      Statistics.label("step").collect("purge:" + dead.size());
    }

    @Override
    public String toString() {
      return "Purge";
    }
  }

  // ---- the model ----

  enum Outcome {
    OK,
    STALE,
    NOT_FOUND
  }

  /** The model of one live job. */
  static final class MJob {
    final String payload;
    final int maxAttempts;
    JobState state;
    int attempts;
    long due;
    String receipt;
    long leaseUntil;
    String lastError = "";

    MJob(String payload, int maxAttempts, JobState state, long due) {
      this.payload = payload;
      this.maxAttempts = maxAttempts;
      this.state = state;
      this.due = due;
    }

    Optional<String> lastError() {
      return lastError.isEmpty() ? Optional.empty() : Optional.of(lastError);
    }

    @Override
    public String toString() {
      return state
          + "(attempts "
          + attempts
          + "/"
          + maxAttempts
          + ", due "
          + due
          + (receipt != null ? ", receipt " + receipt + " until " + leaseUntil : "")
          + ")";
    }
  }

  /** One try: the queue under test, the model, and the checks that compare them. */
  static final class Run {
    final Queue queue;
    final int partitions;
    final Map<String, MJob> jobs = new TreeMap<>();

    /** Every receipt ever issued per id, in order (across incarnations of the id). */
    final Map<String, List<String>> receipts = new HashMap<>();

    final StringBuilder log = new StringBuilder();
    long enqueued;
    long acked;
    long retried;
    long killed;
    long cancelled;
    int step;
    int payloads;

    Run(Queue queue, int partitions) {
      this.queue = queue;
      this.partitions = partitions;
    }

    record Spec(
        String id, DueKind due, long pastMs, String payload, int maxAttempts, JobSpec spec) {}

    Spec spec(String id, DueKind due, int maxAttempts) {
      String payload = "p-" + id + "-" + (++payloads);
      long past = now() - 5_000;
      JobSpec.Builder b =
          JobSpec.builder()
              .id(id)
              .payload(payload)
              .maxAttempts(maxAttempts)
              .backoff(Backoff.fixed(FAR))
              .visibility(LONG_LEASE);
      switch (due) {
        case NOW -> {}
        case ZERO -> b.delay(Duration.ZERO);
        case PAST -> b.runAt(Instant.ofEpochMilli(past));
        case SOON -> b.delay(SOON);
        case FAR -> b.delay(FAR);
      }
      return new Spec(id, due, past, payload, maxAttempts, b.build());
    }

    void created(EnqueueResult r, Spec spec, long before, long after) {
      assertThat(r.created()).as("created %s", spec.id()).isTrue();
      assertThat(r.id()).isEqualTo(spec.id());
      assertThat(r.queue()).isEqualTo(queue.name());
      JobState state = spec.due().dueAtOnce() ? JobState.READY : JobState.DELAYED;
      assertThat(r.state()).as("state of new %s due %s", spec.id(), spec.due()).isEqualTo(state);
      long due = r.runAt().toEpochMilli();
      switch (spec.due()) {
        case NOW, ZERO -> assertWithin("due", due, before, after);
        case PAST -> assertThat(due).as("due").isEqualTo(spec.pastMs());
        case SOON -> assertWithin("due", due, before + SOON_MS, after + SOON_MS);
        case FAR -> assertWithin("due", due, before + FAR.toMillis(), after + FAR.toMillis());
      }
      jobs.put(spec.id(), new MJob(spec.payload(), spec.maxAttempts(), state, due));
      enqueued++;
    }

    void checkDuplicate(EnqueueResult r, MJob existing) {
      assertThat(r.created()).as("duplicate reported").isFalse();
      assertThat(r.state()).as("state of the existing job").isEqualTo(existing.state);
      assertThat(r.runAt().toEpochMilli()).as("due of the existing job").isEqualTo(existing.due);
    }

    void requeued(MJob job, String id, long before, long after) {
      JobInfo info =
          queue.get(id).orElseThrow(() -> new AssertionError(id + " vanished on requeue"));
      assertWithin("due after requeue", info.runAt().toEpochMilli(), before, after);
      job.state = JobState.READY;
      job.attempts = 0;
      job.due = info.runAt().toEpochMilli();
    }

    List<String> idsIn(JobState state) {
      return jobs.entrySet().stream()
          .filter(e -> e.getValue().state == state)
          .map(Map.Entry::getKey)
          .collect(Collectors.toList());
    }

    String receiptFor(String id, ReceiptKind kind, int pick) {
      MJob job = jobs.get(id);
      List<String> issued = receipts.getOrDefault(id, List.of());
      String current = job != null && job.state == JobState.INFLIGHT ? job.receipt : null;
      return switch (kind) {
        case CURRENT ->
            current != null
                ? current
                : issued.isEmpty() ? "never.1" : issued.get(issued.size() - 1);
        case OLD ->
            issued.stream()
                .filter(r -> !r.equals(current))
                .reduce((a, b) -> b)
                .orElse("old." + pick);
        case OTHER_JOB ->
            jobs.entrySet().stream()
                .filter(e -> !e.getKey().equals(id) && e.getValue().state == JobState.INFLIGHT)
                .map(e -> e.getValue().receipt)
                .findFirst()
                .orElse("other." + pick);
        case BOGUS -> "bogus." + pick;
      };
    }

    /**
     * What ack, nack and extend must answer: the receipt holds the job exactly when it is its
     * current lease.
     */
    Outcome leaseCheck(String id, String receipt) {
      MJob job = jobs.get(id);
      if (job == null) {
        return Outcome.NOT_FOUND;
      }
      return job.state == JobState.INFLIGHT && receipt.equals(job.receipt)
          ? Outcome.OK
          : Outcome.STALE;
    }

    /** Per partition, a claim takes the oldest due ready jobs, in due order. */
    void checkClaimOrder(List<Delivery> got, List<String> readyBefore) {
      Set<String> claimedIds = got.stream().map(Delivery::id).collect(Collectors.toSet());
      for (int p = 0; p < partitions; p++) {
        int part = p;
        List<Long> claimedDues =
            got.stream()
                .filter(d -> Keys.partitionOf(d.id(), partitions) == part)
                .map(d -> d.dueAt().toEpochMilli())
                .toList();
        assertThat(claimedDues)
            .as("claim order in partition %d", p)
            .isSortedAccordingTo(Comparator.naturalOrder());
        if (claimedDues.isEmpty()) {
          continue;
        }
        long newestClaimed = claimedDues.get(claimedDues.size() - 1);
        for (String id : readyBefore) {
          if (!claimedIds.contains(id) && Keys.partitionOf(id, partitions) == part) {
            assertThat(jobs.get(id).due)
                .as(
                    "ready %s left behind must not be older than the claimed ones %s",
                    id, claimedIds)
                .isGreaterThanOrEqualTo(newestClaimed);
          }
        }
      }
    }

    /** get() of every id, stats() and the dead-letter listing against the model. */
    /**
     * Sleeps until every soon job is due: it is ready from then on, in near, with no promoter pass.
     */
    void settle() {
      long horizon = now() + 60_000;
      long latest = Long.MIN_VALUE;
      for (MJob job : jobs.values()) {
        if (job.state == JobState.DELAYED && job.due <= horizon) {
          latest = Math.max(latest, job.due);
        }
      }
      if (latest == Long.MIN_VALUE) {
        return;
      }
      sleepPast(latest + 1);
      for (MJob job : jobs.values()) {
        if (job.state == JobState.DELAYED && job.due <= latest) {
          job.state = JobState.READY;
        }
      }
    }

    /** A delayed job this close to its due time may already read as ready. */
    static boolean mayBeDue(MJob job) {
      return job.state == JobState.DELAYED && job.due <= now() + TOLERANCE_MS;
    }

    void checkAll() {
      for (String id : IDS) {
        Optional<JobInfo> got = queue.get(id);
        MJob job = jobs.get(id);
        if (job == null) {
          assertThat(got).as("get(%s) of a job the model does not have", id).isEmpty();
          continue;
        }
        assertThat(got).as("get(%s) of %s", id, job).isPresent();
        JobInfo info = got.get();
        assertThat(info.id()).isEqualTo(id);
        assertThat(info.queue()).isEqualTo(queue.name());
        if (mayBeDue(job)) {
          assertThat(info.state()).as("state of %s", id).isIn(JobState.DELAYED, JobState.READY);
        } else {
          assertThat(info.state()).as("state of %s", id).isEqualTo(job.state);
        }
        assertThat(info.attempts()).as("attempts of %s", id).isEqualTo(job.attempts);
        assertThat(info.maxAttempts()).as("maxAttempts of %s", id).isEqualTo(job.maxAttempts);
        assertThat(info.runAt().toEpochMilli()).as("due of %s", id).isEqualTo(job.due);
        assertThat(info.payloadAsString()).as("payload of %s", id).isEqualTo(job.payload);
        assertThat(info.lastError()).as("lastError of %s", id).isEqualTo(job.lastError());
        assertThat(info.leaseUntil().map(Instant::toEpochMilli))
            .as("leaseUntil of %s", id)
            .isEqualTo(
                job.state == JobState.INFLIGHT ? Optional.of(job.leaseUntil) : Optional.empty());
        assertThat(info.diedAt().isPresent())
            .as("diedAt present for %s", id)
            .isEqualTo(job.state == JobState.DEAD);
      }
      long maybeDue = jobs.values().stream().filter(Run::mayBeDue).count();
      QueueStats s = queue.stats();
      Map<JobState, Long> counts = new TreeMap<>();
      for (JobState st : JobState.values()) {
        counts.put(st, (long) idsIn(st).size());
      }
      assertThat(s.partitions()).isEqualTo(partitions);
      // Soon jobs this close to due may count as ready: move them over, each one at most once.
      long turned = Math.max(0, s.ready() - counts.get(JobState.READY));
      assertThat(turned)
          .as("stats ready beyond the model, model %s", counts)
          .isLessThanOrEqualTo(maybeDue);
      assertThat(new long[] {s.delayed(), s.ready(), s.inflight(), s.dead()})
          .as("stats delayed/ready/inflight/dead, model %s", counts)
          .containsExactly(
              counts.get(JobState.DELAYED) - turned,
              counts.get(JobState.READY) + turned,
              counts.get(JobState.INFLIGHT),
              counts.get(JobState.DEAD));
      assertThat(
              new long[] {
                s.enqueued(), s.acked(), s.retried(), s.killed(), s.expired(), s.cancelled()
              })
          .as("stats counters enqueued/acked/retried/killed/expired/cancelled")
          .containsExactly(enqueued, acked, retried, killed, 0, cancelled);
      assertThat(queue.dead().count()).as("dead().count()").isEqualTo(counts.get(JobState.DEAD));
      DeadPage page = queue.dead().list(null, 100);
      Set<String> listed =
          page.jobs().stream().map(JobInfo::id).collect(Collectors.toCollection(TreeSet::new));
      assertThat(listed).as("dead().list()").isEqualTo(new TreeSet<>(idsIn(JobState.DEAD)));
      assertThat(page.jobs()).allSatisfy(j -> assertThat(j.state()).isEqualTo(JobState.DEAD));
    }
  }

  static long now() {
    return System.currentTimeMillis();
  }

  /** A server-clock time read during a call must fall between the JVM clock before and after it. */
  static void assertWithin(String what, long actual, long before, long after) {
    assertThat(actual).as(what).isBetween(before - TOLERANCE_MS, after + TOLERANCE_MS);
  }

  static void sleepPast(long ms) {
    long left;
    while ((left = ms - now()) >= 0) {
      try {
        Thread.sleep(left + 1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }
}
