package dev.hourglass;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.internal.Promotions;
import dev.hourglass.model.Call;
import dev.hourglass.model.Checker;
import dev.hourglass.model.Choices;
import dev.hourglass.model.Coverage;
import dev.hourglass.model.Judging;
import dev.hourglass.model.ModelLimits;
import dev.hourglass.model.ModelTheory;
import dev.hourglass.model.Reads;
import dev.hourglass.model.Run;
import dev.hourglass.model.Scenarios;
import dev.hourglass.model.Scenarios.Act;
import dev.hourglass.model.Scenarios.PairScenario;
import dev.hourglass.model.Scenarios.Round;
import dev.hourglass.model.Scenarios.Scenario;
import dev.hourglass.model.Steps.Action;
import dev.hourglass.testing.RedisExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Model-based test of {@link Queue}: random sequences of every operation on a small pool of ids,
 * each answer checked against a plain in-memory model of the documented semantics (the javadoc of
 * {@link Queue} and {@link DeadLetters}, the script headers, the invariants of
 * docs/ARCHITECTURE.md).
 *
 * <p>After every step: the step's reply or typed exception matches the model; {@code get} of every
 * id in the pool matches the model's job (state, attempts, due time, lease, payload, last error,
 * ttl, creation and death times); the dead-letter listing holds exactly the model's dead jobs, in
 * order; and, after half the steps, {@code stats()} counts and counters and {@code dead().count()}
 * match too. Those two catch up with the clock (jobs past their ttl leave, lapsed leases come
 * back), so after the other half (and after every wait), the next step meets lapsed leases and ttls
 * that nothing has caught up with yet.
 *
 * <p>Time is real. Jobs are due now, in the past, soon (tens of ms: they wait in near), within a
 * second (beyond the queue's short slot width of 100 to 400 ms, so they wait in slot lists and fall
 * due there) or in an hour; leases and ttls are short (lapsing during the test) or long. A {@code
 * Wait} step sleeps until the model's next event (a due time, lease deadline or ttl) has passed on
 * the clock Redis shares with this JVM. The model knows the server time a call's scripts read only
 * to lie between the JVM clock before and after the call, so the {@link Checker} keeps every state
 * of the model consistent with the answers so far (see its comment): one, nearly always.
 *
 * <p>Three properties:
 *
 * <ul>
 *   <li>{@link #queueFollowsTheModel}: one client without a background promoter, so only the steps'
 *       own claim, stats and promote calls catch up; queues of 1 or 2 partitions.
 *   <li>{@link #queueFollowsTheModelWithABackgroundPromoter}: the default client, whose promoter
 *       may catch up at any moment: the model allows a catch-up before every call.
 *   <li>{@link #twoClientsActAsInOneOrder}: two clients each issue a step at the same moment, from
 *       two threads, on a one-partition queue. The steps are drawn independently and resolve their
 *       targets against the same state, so they often contend for the same job (two claims, an ack
 *       and a nack of one lease, an enqueue and a cancel of one id...). Redis runs one script at a
 *       time, so the two answers must be those of one of the two orders: the checker tries both,
 *       each call at a server time within its own window and the second one's no earlier than the
 *       first one's, and keeps the states of the orders that fit.
 * </ul>
 *
 * <p>Scenarios come from QuickTheories generators ({@link Scenarios}), so a failure is shrunk and
 * reported with the seed that replays it ({@code -DQT_SEED=...}); {@code -DQT_EXAMPLES=n} runs n
 * tries of each property instead of its default (see {@link ModelTheory}). Each property prints
 * what its tries exercised (to the test's output file).
 */
class QueueModelPropertyTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  static final Duration SHORT_LEASE = Duration.ofMillis(25);
  static final Duration LONG_LEASE = Duration.ofHours(1);

  private static final AtomicInteger queueNumbers = new AtomicInteger();

  /** One client, no background promoter: 1 to 40 steps on a queue of 1 or 2 partitions. */
  @Test
  void queueFollowsTheModel(TestInfo test) {
    Coverage coverage = new Coverage();
    try (Hourglass client = manualClient()) {
      ModelTheory.check(
          test,
          50,
          coverage,
          Scenarios.sequential(1, 40),
          scenario -> runAlone(client, scenario, false, coverage));
    } finally {
      report(test, coverage);
    }
  }

  /**
   * The default client: its background promoter (started by the queue's first claim) may catch up
   * before any call, which the model allows; 1 to 30 steps.
   */
  @Test
  void queueFollowsTheModelWithABackgroundPromoter(TestInfo test) {
    Coverage coverage = new Coverage();
    try (Hourglass client = Hourglass.builder().redisUri(redis.uri()).build()) {
      ModelTheory.check(
          test,
          30,
          coverage,
          Scenarios.sequential(1, 30),
          scenario -> runAlone(client, scenario, true, coverage));
    } finally {
      report(test, coverage);
    }
  }

  /**
   * Two clients without background promoters, a step each at the same moment (threads released
   * together by a latch), 1 to 25 rounds on a one-partition queue; a lone wait now and then.
   */
  @Test
  void twoClientsActAsInOneOrder(TestInfo test) throws InterruptedException {
    Coverage coverage = new Coverage();
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try (Hourglass a = manualClient();
        Hourglass b = manualClient()) {
      ModelTheory.check(
          test,
          50,
          coverage,
          Scenarios.pairs(1, 25),
          scenario -> runPairs(a, b, threads, scenario, coverage));
    } finally {
      threads.shutdownNow();
      threads.awaitTermination(10, TimeUnit.SECONDS);
      report(test, coverage);
    }
  }

  /**
   * Found by the property (Extend SHORT, then Promote): a lease shortened by {@code extend} must
   * lapse at its new deadline. Minimal form of that counterexample.
   */
  @Test
  void aShortenedLeaseComesBackAtItsNewDeadline() {
    try (Hourglass client = manualClient()) {
      Queue<byte[]> queue = client.queue("shortened-" + queueNumbers.incrementAndGet());
      queue.enqueue(JobSpec.builder().id("j").payload("x").maxAttempts(2).build());
      Delivery<byte[]> delivery = queue.claim(1, LONG_LEASE).get(0);
      Instant until = queue.extend("j", delivery.receipt(), SHORT_LEASE);
      Judging.sleepPast(until.toEpochMilli() + 1); // until the new deadline has passed on the clock

      JobInfo<byte[]> lapsed = queue.get("j").orElseThrow();
      assertThat(lapsed.state()).as("get() before any catch-up").isEqualTo(JobState.INFLIGHT);
      assertThat(lapsed.leaseUntil()).contains(until);
      assertThat(Promotions.now(queue))
          .as("expired leases promote() returns to ready")
          .isEqualTo(1);
      JobInfo<byte[]> job = queue.get("j").orElseThrow();
      assertThat(job.state()).isEqualTo(JobState.READY);
      assertThat(job.attempts()).isEqualTo(1);
      assertThat(job.lastError()).contains("lease expired");
    }
  }

  /**
   * {@link Queue#promote()} deletes "dead jobs past retention"; retention lowered by {@link
   * Hourglass#configureQueue} must apply on the next pass, not when the old retention would have.
   */
  @Test
  void loweredDeadRetentionAppliesOnTheNextPromote() {
    try (Hourglass client = manualClient()) {
      String name = "retention-" + queueNumbers.incrementAndGet();
      Queue<byte[]> queue = client.queue(name);
      for (String id : List.of("d1", "d2", "d3")) {
        queue.enqueue(JobSpec.builder().id(id).payload(id).build());
      }
      for (Delivery<byte[]> d : queue.claim(3, LONG_LEASE)) {
        queue.nack(d.id(), d.receipt(), Nack.kill("no"));
      }
      Promotions.now(queue);
      assertThat(queue.dead().count()).isEqualTo(3);

      client.configureQueue(name, queue.settings().toBuilder().deadMaxCount(1).build());
      Promotions.now(queue);

      assertThat(queue.dead().count()).as("dead jobs kept with deadMaxCount 1").isEqualTo(1);
    }
  }

  /**
   * Found by the property: {@code get()} reports a job past its ttl gone at once ("empty when no
   * live job has this id"), and {@code enqueue} refuses only "a live job" with the spec's id, so
   * the id is free at once, before any claim, stats or promoter pass has swept the old job.
   */
  @Test
  void theIdOfAJobPastItsTtlIsFreeAtOnce() {
    try (Hourglass client = manualClient()) {
      Queue<byte[]> queue = client.queue("ttl-id-" + queueNumbers.incrementAndGet());
      queue.enqueue(JobSpec.builder().id("t").payload("old").ttl(Duration.ofMillis(100)).build());
      Instant expires = queue.get("t").orElseThrow().expiresAt().orElseThrow();
      Judging.sleepPast(expires.toEpochMilli()); // until the ttl has passed on the clock

      assertThat(queue.get("t")).as("get() of a job past its ttl").isEmpty();
      EnqueueResult again = queue.enqueueIfAbsent(JobSpec.builder().id("t").payload("new").build());
      assertThat(again.created())
          .as("enqueueIfAbsent of an id whose job get() reports gone (reply %s)", again)
          .isTrue();
      assertThat(queue.get("t").orElseThrow().payloadAsString()).isEqualTo("new");
      QueueStats stats = queue.stats();
      assertThat(stats.counters().enqueued()).isEqualTo(2);
      assertThat(stats.counters().expired()).isEqualTo(1);
    }
  }

  /**
   * Found by the property: until a catch-up sweeps a leased job past its ttl, its receipt still
   * settles it (ack, extend, nack with a delay all succeed). A nack by the job's backoff must
   * answer the same, whichever answer the core settles on for both.
   */
  @Test
  void aNackByBackoffAnswersAsANackWithADelayForAJobPastItsTtl() {
    try (Hourglass client = manualClient()) {
      Queue<byte[]> queue = client.queue("ttl-nack-" + queueNumbers.incrementAndGet());
      for (String id : List.of("by-delay", "by-backoff")) {
        queue.enqueue(
            JobSpec.builder()
                .id(id)
                .payload(id)
                .backoff(Backoff.fixed(Duration.ofHours(1)))
                .ttl(Duration.ofMillis(150))
                .build());
      }
      List<Delivery<byte[]>> leased = queue.claim(2, LONG_LEASE);
      assertThat(leased).hasSize(2);
      Instant expires = queue.get("by-backoff").orElseThrow().expiresAt().orElseThrow();
      Judging.sleepPast(expires.toEpochMilli()); // until both ttls have passed on the clock

      String byDelay = settle(queue, leased, "by-delay", Nack.retryAfter(Duration.ofHours(1), "x"));
      String byBackoff = settle(queue, leased, "by-backoff", Nack.retry("x"));
      assertThat(byBackoff).as("nack by backoff vs nack with a delay").isEqualTo(byDelay);
    }
  }

  /**
   * Found by the property: {@link Queue#promote()} returns "expired leases returned" among the jobs
   * the pass made ready, also when the same pass loads a slot list. (A pass that must declare a
   * slot list is run twice; the lapsed lease is returned by the first run.)
   */
  @Test
  void promoteCountsALapsedLeaseItReturnsWhileItLoadsASlotList() {
    try (Hourglass client = manualClient()) {
      Queue<byte[]> queue =
          client.configureQueue(
              "lapsed-and-slot-" + queueNumbers.incrementAndGet(),
              settings(1, 1000, ModelLimits.NONE));
      queue.enqueue(JobSpec.builder().id("a").payload("a").maxAttempts(3).build());
      Delivery<byte[]> lease = queue.claim(1, Duration.ofMillis(250)).get(0);
      // Due 900 ms after the lease deadline: in a slot list that starts less than a slot width
      // (the promoter's lookahead) after it, so the pass right after the deadline loads it (and
      // does not count it: it is not due yet).
      Instant due = lease.leaseUntil().plusMillis(900);
      queue.enqueue(JobSpec.builder().id("b").payload("b").runAt(due).build());
      Judging.sleepPast(lease.leaseUntil().toEpochMilli()); // until the lease has lapsed
      assertThat(queue.get("a").orElseThrow().state()).isEqualTo(JobState.INFLIGHT);

      long moved = Promotions.now(queue);

      JobInfo<byte[]> a = queue.get("a").orElseThrow();
      assertThat(a.state()).as("a after the pass").isEqualTo(JobState.READY);
      assertThat(a.attempts()).isEqualTo(1);
      assertThat(moved).as("jobs promote() reports it made ready (the lapsed lease)").isEqualTo(1);
    }
  }

  private static String settle(
      Queue<byte[]> queue, List<Delivery<byte[]>> leased, String id, Nack nack) {
    Delivery<byte[]> d = leased.stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow();
    try {
      return queue.nack(id, d.receipt(), nack).dead() ? "dead" : "retried";
    } catch (JobException e) {
      return e.getClass().getSimpleName();
    }
  }

  // ---- running a scenario ----

  /** One client's steps, one after another, each followed by the reads. */
  private static void runAlone(
      Hourglass client, Scenario scenario, boolean backgroundPromoter, Coverage coverage) {
    redis.server().flushAll();
    // A fresh queue name per try: the client caches each queue's settings.
    String name = "model-" + queueNumbers.incrementAndGet();
    Queue<byte[]> queue =
        client.configureQueue(
            name, settings(scenario.partitions(), scenario.slotWidthMs(), scenario.limits()));
    Run run =
        new Run(
            name,
            scenario.partitions(),
            scenario.slotWidthMs(),
            scenario.limits(),
            false,
            coverage);
    Checker checker = new Checker(scenario.partitions(), backgroundPromoter);
    if (backgroundPromoter) {
      // A queue's first claim starts the client's promoter for it (Queue.claim).
      assertThat(queue.claim(1, LONG_LEASE)).isEmpty();
    }
    try {
      readAll(run, queue, checker, true);
      for (Act act : scenario.acts()) {
        run.log(run.nextStep() + ". " + act);
        Call call = act.step().prepare(run, checker.reference()).execute(queue, "A");
        if (call != null) {
          run.log("   " + call);
          checker.observe(call);
        }
        countSlotLists(coverage);
        readAll(run, queue, checker, act.sweep());
      }
      coverage.label("try: most possible states at once " + checker.mostWorlds());
    } catch (AssertionError | RuntimeException e) {
      throw failure(run, checker, e);
    }
  }

  /** Two clients' steps at the same moment, round after round, each round followed by reads. */
  private static void runPairs(
      Hourglass a, Hourglass b, ExecutorService threads, PairScenario scenario, Coverage coverage) {
    redis.server().flushAll();
    String name = "pairs-" + queueNumbers.incrementAndGet();
    Queue<byte[]> queueA =
        a.configureQueue(name, settings(1, scenario.slotWidthMs(), scenario.limits()));
    Queue<byte[]> queueB = b.queue(name);
    Run run = new Run(name, 1, scenario.slotWidthMs(), scenario.limits(), true, coverage);
    Checker checker = new Checker(1, false);
    try {
      readAll(run, queueA, checker, true);
      for (Round round : scenario.rounds()) {
        run.log(run.nextStep() + ". " + round);
        if (round.alone()) {
          Call call = round.a().prepare(run, checker.reference()).execute(queueA, "A");
          if (call != null) {
            run.log("   " + call);
            checker.observe(call);
          }
        } else {
          Action x = round.a().prepare(run, checker.reference());
          Action y = round.b().prepare(run, checker.reference());
          Call[] calls =
              atOnce(threads, () -> x.execute(queueA, "A"), () -> y.execute(queueB, "B"));
          run.log("   " + calls[0] + "\n   " + calls[1]);
          coverage.label("pair: orders that fit " + checker.observePair(calls[0], calls[1]));
        }
        countSlotLists(coverage);
        readAll(run, queueA, checker, round.sweep());
      }
    } catch (AssertionError | RuntimeException e) {
      throw failure(run, checker, e);
    }
  }

  /** Runs both calls on two threads released at the same moment; waits for both. */
  private static Call[] atOnce(
      ExecutorService threads,
      java.util.function.Supplier<Call> x,
      java.util.function.Supplier<Call> y) {
    CountDownLatch ready = new CountDownLatch(2);
    CountDownLatch go = new CountDownLatch(1);
    Future<Call> fx = threads.submit(() -> released(ready, go, x));
    Future<Call> fy = threads.submit(() -> released(ready, go, y));
    try {
      ready.await();
      go.countDown();
      return new Call[] {fx.get(60, TimeUnit.SECONDS), fy.get(60, TimeUnit.SECONDS)};
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a client's step threw outside its call", e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("a client's step did not end within 60 s", e);
    }
  }

  private static Call released(
      CountDownLatch ready, CountDownLatch go, java.util.function.Supplier<Call> call)
      throws InterruptedException {
    ready.countDown();
    go.await();
    return call.get();
  }

  /**
   * The reads after each step: {@code get} of every id and the dead-letter listing (neither catches
   * up), then, when {@code sweep}, {@code stats()} and {@code dead().count()}.
   */
  private static void readAll(Run run, Queue<byte[]> queue, Checker checker, boolean sweep) {
    for (String id : Choices.IDS) {
      checker.observe(Reads.get(run, queue, "A", id, checker.reference()));
    }
    checker.observe(Reads.deadList(run, queue, "A"));
    if (sweep) {
      checker.observe(Reads.stats(run, queue, "A"));
      checker.observe(Reads.deadCount(run, queue, "A"));
    }
  }

  /** Coverage only: whether jobs wait in slot lists (not only in near) after a step. */
  private static void countSlotLists(Coverage coverage) {
    String lists =
        redis.server().command("EVAL", "return #redis.call('KEYS', ARGV[1])", "0", "*:slot:*");
    if (!"0".equals(lists)) {
      coverage.label("step: some jobs wait in slot lists");
    }
  }

  private static AssertionError failure(Run run, Checker checker, Throwable e) {
    return new AssertionError(
        "step "
            + run.step()
            + " failed: "
            + e.getMessage()
            + "\nsteps so far (with their answers):\n"
            + run.log()
            + "possible states of the model now: "
            + checker.worlds(),
        e);
  }

  private static QueueSettings settings(int partitions, int slotWidthMs, ModelLimits limits) {
    return QueueSettings.builder()
        .limits(limits.queueLimits())
        .partitions(partitions)
        .pools(4)
        .slotWidth(Duration.ofMillis(slotWidthMs))
        .build();
  }

  private static Hourglass manualClient() {
    return Hourglass.builder().redisUri(redis.uri()).backgroundPromoter(false).build();
  }

  private static void report(TestInfo test, Coverage coverage) {
    System.out.println(
        test.getTestMethod().orElseThrow().getName() + " exercised:\n" + coverage.report());
  }
}
