package dev.hourglass.model;

import static dev.hourglass.model.Choices.BACKOFF;
import static dev.hourglass.model.Choices.LONG_LEASE;
import static dev.hourglass.model.Choices.PAST_MS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.Delivery;
import dev.hourglass.DuplicateJobException;
import dev.hourglass.EnqueueResult;
import dev.hourglass.JobInfo;
import dev.hourglass.JobSpec;
import dev.hourglass.JobState;
import dev.hourglass.NackResult;
import dev.hourglass.model.Choices.Due;
import dev.hourglass.model.Choices.DueKind;
import dev.hourglass.model.Choices.ReceiptKind;
import dev.hourglass.model.Choices.Ttl;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;

/**
 * What the steps and reads share in judging answers: the model of an enqueue, of a lease check, of
 * a job as the API shows it; and the clock and formatting helpers.
 */
public final class Judging {
  private Judging() {}

  /** A job a step enqueues: its spec and what the model needs to check the reply. */
  record NewJob(
      String id, Due due, long pastMs, String payload, int maxAttempts, Ttl ttl, JobSpec spec) {

    static NewJob of(Run run, String id, Due due, int maxAttempts, Ttl ttl) {
      String payload = run.newPayload(id);
      long past = now() - PAST_MS;
      JobSpec.Builder b =
          JobSpec.builder()
              .id(id)
              .payload(payload)
              .maxAttempts(maxAttempts)
              .priority(Choices.priorityOf(id))
              .backoff(BACKOFF)
              .visibility(LONG_LEASE);
      switch (due.kind()) {
        case NOW -> {}
        case ZERO -> b.delay(Duration.ZERO);
        case PAST -> b.runAt(Instant.ofEpochMilli(past));
        default -> b.delay(Duration.ofMillis(due.delayMs()));
      }
      if (ttl.millis() > 0) {
        b.ttl(Duration.ofMillis(ttl.millis()));
      }
      return new NewJob(id, due, past, payload, maxAttempts, ttl, b.build());
    }

    /** The job a successful enqueue created, after checking the reply. */
    ModelJob created(Run run, EnqueueResult r, long lo, long hi) {
      assertThat(r.created()).as("created %s", id).isTrue();
      assertThat(r.id()).isEqualTo(id);
      assertThat(r.queue()).isEqualTo(run.queueName);
      JobState state = due.atOnce() ? JobState.READY : JobState.DELAYED;
      assertThat(r.state()).as("state of new %s due %s", id, due).isEqualTo(state);
      long at = r.runAt().toEpochMilli();
      long createdLo = lo;
      long createdHi = hi;
      if (due.kind() == DueKind.PAST) {
        assertThat(at).as("due").isEqualTo(pastMs);
      } else {
        // Due at the server's now plus the delay: that gives the creation time exactly.
        assertWithin("due", at, lo + due.delayMs(), hi + due.delayMs());
        createdLo = at - due.delayMs();
        createdHi = createdLo;
      }
      if (ttl.millis() > 0 && createdLo != createdHi) {
        throw new IllegalStateException("the generators give a ttl only with a relative due time");
      }
      long expireAt = ttl.millis() > 0 ? createdLo + ttl.millis() : 0;
      return ModelJob.created(
          id,
          run.partitionOf(id),
          payload,
          maxAttempts,
          createdLo,
          createdHi,
          expireAt,
          at,
          !due.atOnce());
    }
  }

  /**
   * Enqueue of one job at server time {@code t}: a duplicate of a live job is refused ({@code
   * enqueue}) or reported ({@code enqueueIfAbsent}, batches) with the live job's state and due
   * time; otherwise the job is created.
   */
  static World enqueued(
      Run run,
      World w,
      long t,
      NewJob job,
      Result<EnqueueResult> r,
      boolean throwsOnDuplicate,
      long lo,
      long hi) {
    ModelJob existing = w.job(job.id());
    if (existing != null) {
      // The script ran after the job was created (perhaps earlier in the same batch).
      t = Math.max(t, existing.createdLo());
    }
    if (existing != null && !existing.expiredAt(t)) {
      if (throwsOnDuplicate) {
        r.fails(DuplicateJobException.class, run, job.id(), "enqueue of live " + existing);
      } else {
        EnqueueResult e = r.get("enqueue of live " + existing);
        assertThat(e.created()).as("created, with a live %s", existing).isFalse();
        assertThat(e.queue()).isEqualTo(run.queueName);
        assertThat(e.state()).as("state of the live job").isEqualTo(existing.stateAt(t));
        assertThat(e.runAt().toEpochMilli()).as("due of the live job").isEqualTo(existing.due());
      }
      return w;
    }
    // Queue.enqueue: a duplicate is a *live* job with the id; Queue.get: a job past its ttl is
    // not one. So its id is free: the old job leaves (counted expired) and the new one is created.
    World base = existing == null ? w : w.without(job.id()).with(w.counters().plusExpired());
    String what = existing == null ? "enqueue" : "enqueue over " + existing + ", past its ttl";
    ModelJob created = job.created(run, r.get(what), lo, hi);
    return base.with(created).with(base.counters().plusEnqueued());
  }

  enum LeaseOutcome {
    OK,
    STALE,
    NOT_FOUND
  }

  /**
   * What ack, nack and extend answer: the receipt holds the job exactly when it is its current
   * lease, whose deadline may have passed as long as no catch-up has returned the job yet.
   */
  static LeaseOutcome leaseCheck(World w, String id, String receipt) {
    ModelJob j = w.job(id);
    if (j == null) {
      return LeaseOutcome.NOT_FOUND;
    }
    return j.leased() && receipt.equals(j.receipt()) ? LeaseOutcome.OK : LeaseOutcome.STALE;
  }

  static String receiptFor(Run run, World w, String id, ReceiptKind kind, int pick) {
    ModelJob job = w.job(id);
    List<String> issued = run.issued(id);
    String current = job != null && job.leased() ? job.receipt() : null;
    return switch (kind) {
      case CURRENT ->
          current != null ? current : issued.isEmpty() ? "never.1" : issued.get(issued.size() - 1);
      case OLD ->
          issued.stream().filter(r -> !r.equals(current)).reduce((a, b) -> b).orElse("old." + pick);
      case OTHER_JOB ->
          w.jobs().values().stream()
              .filter(j -> !j.id().equals(id) && j.leased())
              .map(ModelJob::receipt)
              .findFirst()
              .orElse("other." + pick);
      case BOGUS -> "bogus." + pick;
    };
  }

  /** A dead job requeued at a time in [lo, hi]: the read right after the call gives it. */
  static World requeued(
      Run run, World w, ModelJob j, Optional<JobInfo<byte[]>> read, long lo, long hi) {
    long at = hi;
    if (read != null && read.isPresent()) {
      long due = dueOf(read.get());
      if (run.concurrent && (due < lo || due > hi)) {
        at = hi; // the other client changed it before the read: its step says what it did
      } else {
        assertWithin("due after requeue", due, lo, hi);
        at = due;
      }
    }
    return w.with(j.requeuedAt(at));
  }

  /** Every partition caught up at its server time, as stats does first. */
  static World caughtUp(Run run, World w, long[] t, long lo, long hi) {
    World x = w;
    for (int p = 0; p < run.partitions; p++) {
      x = x.catchUp(p, t[p], lo, hi, 1).world();
    }
    return x;
  }

  static void checkDelivery(Delivery<byte[]> d, ModelJob j) {
    assertThat(d.attempt()).as("attempt of %s", d.id()).isEqualTo(j.attempts() + 1);
    assertThat(d.maxAttempts()).as("maxAttempts of %s", d.id()).isEqualTo(j.maxAttempts());
    assertThat(d.priority()).as("priority of %s", d.id()).isEqualTo(Choices.priorityOf(j.id()));
    assertThat(d.dueAt().toEpochMilli()).as("dueAt of %s", d.id()).isEqualTo(j.due());
    assertThat(d.payloadAsString()).as("payload of %s", d.id()).isEqualTo(j.payload());
    assertThat(d.lastError()).as("lastError of %s", d.id()).isEqualTo(lastError(j));
    assertWithin(
        "createdAt of " + d.id(), d.createdAt().toEpochMilli(), j.createdLo(), j.createdHi(), 0);
  }

  /** A job as {@code get()}, the dead-letter listing or a reschedule reply shows it. */
  static void checkInfo(Run run, JobInfo<byte[]> info, ModelJob j, JobState state, String source) {
    String id = j.id();
    assertThat(info.id()).isEqualTo(id);
    assertThat(info.queue()).isEqualTo(run.queueName);
    assertThat(info.state()).as("state of %s (%s)", j, source).isEqualTo(state);
    // The model counts finished attempts; get() counts deliveries made, an inflight job's own
    // included, so that it says the attempt its delivery says.
    assertThat(info.attempts())
        .as("attempts of %s", j)
        .isEqualTo(state == JobState.INFLIGHT ? j.attempts() + 1 : j.attempts());
    assertThat(info.maxAttempts()).as("maxAttempts of %s", j).isEqualTo(j.maxAttempts());
    assertThat(info.priority()).as("priority of %s", j).isEqualTo(Choices.priorityOf(id));
    assertThat(info.runAt().toEpochMilli()).as("due of %s", j).isEqualTo(j.due());
    assertThat(info.payloadAsString()).as("payload of %s", j).isEqualTo(j.payload());
    assertThat(info.lastError()).as("lastError of %s", j).isEqualTo(lastError(j));
    assertThat(info.leaseUntil().map(Instant::toEpochMilli))
        .as("leaseUntil of %s", j)
        .isEqualTo(state == JobState.INFLIGHT ? Optional.of(j.leaseUntil()) : Optional.empty());
    if (state == JobState.DEAD) {
      assertThat(info.diedAt()).as("diedAt of %s", j).isPresent();
      assertWithin(
          "diedAt of " + id, info.diedAt().get().toEpochMilli(), j.diedLo(), j.diedHi(), 0);
    } else {
      assertThat(info.diedAt()).as("diedAt of %s", j).isEmpty();
    }
    assertThat(info.expiresAt().map(Instant::toEpochMilli))
        .as("expiresAt of %s", j)
        .isEqualTo(j.expireAt() > 0 ? Optional.of(j.expireAt()) : Optional.empty());
    assertWithin(
        "createdAt of " + id, info.createdAt().toEpochMilli(), j.createdLo(), j.createdHi(), 0);
    assertThat(info.visibility()).as("visibility of %s", j).isEqualTo(LONG_LEASE);
    assertThat(info.backoff()).as("backoff of %s", j).isEqualTo(BACKOFF);
  }

  /** The job with its creation (and death) time as an answer showed them. */
  static ModelJob pin(ModelJob j, JobInfo<byte[]> info) {
    return j.pinned(
        info.createdAt().toEpochMilli(), info.diedAt().map(Instant::toEpochMilli).orElse(0L));
  }

  static Optional<String> lastError(ModelJob j) {
    return j.lastError().isEmpty() ? Optional.empty() : Optional.of(j.lastError());
  }

  // ---- small helpers ----

  static Call call(
      String text,
      long before,
      long after,
      int[] partitions,
      boolean catchesUp,
      Runnable facts,
      Call.Judge judge) {
    return new Call(text, lo(before), hi(after), partitions, catchesUp, facts, judge);
  }

  static long lo(long before) {
    return before - Checker.TOLERANCE_MS;
  }

  static long hi(long after) {
    return after + Checker.TOLERANCE_MS;
  }

  public static long now() {
    return System.currentTimeMillis();
  }

  static void assertWithin(String what, long actual, long lo, long hi) {
    assertWithin(what, actual, lo, hi, 0);
  }

  static void assertWithin(String what, long actual, long lo, long hi, long slack) {
    assertThat(actual).as(what).isBetween(lo - slack, hi + slack);
  }

  /**
   * Waits until the JVM clock, which Redis on this host shares, has passed {@code ms}: the clock is
   * the condition.
   */
  public static void sleepPast(long ms) {
    Awaitility.await()
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(1))
        .atMost(Duration.ofMinutes(1))
        .until(() -> now() > ms);
  }

  static String outcome(Result<?> r) {
    if (r.failed()) {
      return r.error().getClass().getSimpleName();
    }
    Object v = r.value();
    if (v instanceof EnqueueResult e) {
      return e.created() ? "created " + e.state() : "duplicate";
    }
    if (v instanceof List<?> l) {
      return "ok " + l.size();
    }
    if (v instanceof NackResult n) {
      return n.dead() ? "dead" : "retry";
    }
    if (v instanceof JobInfo<?> i) {
      return "ok " + i.state();
    }
    if (v == null || v instanceof Instant) {
      return "ok";
    }
    return String.valueOf(v);
  }

  /** A job as a log line shows it. */
  static String brief(JobInfo<byte[]> i) {
    StringBuilder s = new StringBuilder(i.state().name());
    s.append(" attempts ").append(i.attempts()).append('/').append(i.maxAttempts());
    s.append(" due ").append(dueOf(i));
    i.leaseUntil().ifPresent(u -> s.append(" lease until ").append(u.toEpochMilli()));
    i.diedAt().ifPresent(d -> s.append(" died ").append(d.toEpochMilli()));
    i.lastError().ifPresent(e -> s.append(" error '").append(e).append('\''));
    return s.toString();
  }

  static long dueOf(JobInfo<byte[]> info) {
    return info.runAt().toEpochMilli();
  }

  static Set<String> ids(List<JobInfo<byte[]>> jobs) {
    return jobs.stream().map(JobInfo::id).collect(Collectors.toCollection(TreeSet::new));
  }

  static String deliveries(Result<List<Delivery<byte[]>>> r) {
    if (r.failed()) {
      return r.toString();
    }
    return r.value().stream()
        .map(
            d ->
                d.id()
                    + "#"
                    + d.attempt()
                    + " "
                    + d.receipt()
                    + " until "
                    + d.leaseUntil().toEpochMilli())
        .toList()
        .toString();
  }
}
