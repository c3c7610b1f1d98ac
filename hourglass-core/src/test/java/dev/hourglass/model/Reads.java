package dev.hourglass.model;

import static dev.hourglass.model.Judging.call;
import static dev.hourglass.model.Judging.caughtUp;
import static dev.hourglass.model.Judging.checkInfo;
import static dev.hourglass.model.Judging.hi;
import static dev.hourglass.model.Judging.ids;
import static dev.hourglass.model.Judging.lo;
import static dev.hourglass.model.Judging.now;
import static dev.hourglass.model.Judging.pin;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.JobInfo;
import dev.hourglass.JobPage;
import dev.hourglass.JobState;
import dev.hourglass.Queue;
import dev.hourglass.QueueStats;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The reads that check the queue after each step: {@code get} of an id and the dead-letter listing
 * (neither catches up with the clock), {@code stats()} and {@code dead().count()} (both do), each
 * with how the model judges its answer.
 */
public final class Reads {
  private Reads() {}

  /** {@code get(id)}: reads, catches nothing up. */
  public static Call get(Run run, Queue<byte[]> queue, String client, String id, World reference) {
    long before = now();
    Result<Optional<JobInfo<byte[]>>> r = Result.of(() -> queue.get(id));
    long after = now();
    if (!r.failed() && r.value().isPresent()) {
      JobInfo<byte[]> info = r.value().get();
      if (info.state() == JobState.INFLIGHT
          && info.leaseUntil().orElseThrow().toEpochMilli() < before) {
        run.coverage.label("get: inflight past its lease deadline, not caught up yet");
      }
    }
    if (!r.failed() && r.value().isEmpty()) {
      ModelJob j = reference.job(id);
      if (j != null && j.expiredAt(before)) {
        run.coverage.label("get: absent past its ttl, not caught up yet");
      }
    }
    if (!r.failed() && r.value().map(i -> i.state() == JobState.READY).orElse(false)) {
      ModelJob j = reference.job(id);
      if (j != null && j.maybeInSlot()) {
        run.coverage.label("get: ready, loaded from no slot list yet");
      }
    }
    int p = run.partitionOf(id);
    return call(
        client
            + ": get("
            + id
            + ") -> "
            + (r.failed() ? r : r.value().map(Judging::brief).orElse("empty")),
        before,
        after,
        new int[] {p},
        false,
        () -> {},
        (w, t) -> {
          ModelJob j = w.job(id);
          Optional<JobInfo<byte[]>> got = r.get("get(" + id + ")");
          if (j == null || j.expiredAt(t[p])) {
            assertThat(got)
                .as("get(%s) of %s", id, j == null ? "no job" : "a job past its ttl")
                .isEmpty();
            return List.of(w);
          }
          assertThat(got).as("get(%s) of %s", id, j).isPresent();
          checkInfo(run, got.get(), j, j.stateAt(t[p]), "get");
          return List.of(w.with(pin(j, got.get())));
        });
  }

  /**
   * {@code dead().list()}: catches every partition up (as stats does), then lists every dead job,
   * oldest death first across partitions, ties by id.
   */
  public static Call deadList(Run run, Queue<byte[]> queue, String client) {
    long before = now();
    Result<JobPage> r = Result.of(() -> queue.dead().list(null, 100));
    long after = now();
    return call(
        client + ": dead().list -> " + (r.failed() ? r : ids(r.value().jobs())),
        before,
        after,
        run.allPartitions(),
        true,
        () -> {},
        (w, t) -> {
          JobPage<byte[]> page = r.get("dead().list");
          World x = caughtUp(run, w, t, lo(before), hi(after));
          List<ModelJob> dead = x.jobs().values().stream().filter(ModelJob::dead).toList();
          assertThat(ids(page.jobs()))
              .as("dead jobs listed, model %s", dead)
              .isEqualTo(dead.stream().map(ModelJob::id).collect(Collectors.toSet()));
          assertThat(page.next()).as("next page cursor").isEmpty();
          for (JobInfo<byte[]> info : page.jobs()) {
            ModelJob j = x.job(info.id());
            checkInfo(run, info, j, JobState.DEAD, "dead().list");
            x = x.with(pin(j, info));
          }
          assertThat(page.jobs())
              .as("oldest death first")
              .isSortedAccordingTo(
                  Comparator.comparing((JobInfo<byte[]> i) -> i.diedAt().orElseThrow())
                      .thenComparing(JobInfo::id));
          return List.of(x);
        });
  }

  /** {@code stats()}: catches every partition up, then counts. */
  public static Call stats(Run run, Queue<byte[]> queue, String client) {
    long before = now();
    Result<QueueStats> r = Result.of(queue::stats);
    long after = now();
    return call(
        client + ": stats -> " + r,
        before,
        after,
        run.allPartitions(),
        true,
        () -> {},
        (w, t) -> {
          QueueStats s = r.get("stats");
          World x = caughtUp(run, w, t, lo(before), hi(after));
          long delayed = 0, ready = 0, inflight = 0, dead = 0;
          for (ModelJob j : x.jobs().values()) {
            switch (j.stateAt(t[j.partition()])) {
              case DELAYED -> delayed++;
              case READY -> ready++;
              case INFLIGHT -> inflight++;
              case DEAD -> dead++;
            }
          }
          long heldBack = 0;
          for (int p = 0; p < run.partitions; p++) {
            long readyIn = x.readyIn(p, t[p]).size();
            heldBack += readyIn - Math.min(readyIn, run.limits.allowance(run, x, p));
          }
          assertThat(s.heldBack()).as("stats heldBack, %s", run.limits).isEqualTo(heldBack);
          assertThat(s.queue()).isEqualTo(run.queueName);
          assertThat(s.partitions()).isEqualTo(run.partitions);
          assertThat(new long[] {s.delayed(), s.ready(), s.inflight(), s.dead()})
              .as("stats delayed/ready/inflight/dead, model %s", x.jobs().values())
              .containsExactly(delayed, ready, inflight, dead);
          World.Counters c = x.counters();
          assertThat(
                  new long[] {
                    s.counters().enqueued(),
                    s.counters().delivered(),
                    s.counters().acked(),
                    s.counters().retried(),
                    s.counters().dead(),
                    s.counters().expired(),
                    s.counters().cancelled()
                  })
              .as("stats enqueued/delivered/acked/retried/killed/expired/cancelled")
              .containsExactly(
                  c.enqueued(),
                  c.delivered(),
                  c.acked(),
                  c.retried(),
                  c.killed(),
                  c.expired(),
                  c.cancelled());
          return List.of(x);
        });
  }

  /** {@code dead().count()}: a stats call, so it catches up too. */
  public static Call deadCount(Run run, Queue<byte[]> queue, String client) {
    long before = now();
    Result<Long> r = Result.of(() -> queue.dead().count());
    long after = now();
    return call(
        client + ": dead().count -> " + r,
        before,
        after,
        run.allPartitions(),
        true,
        () -> {},
        (w, t) -> {
          World x = caughtUp(run, w, t, lo(before), hi(after));
          long dead = x.jobs().values().stream().filter(ModelJob::dead).count();
          assertThat(r.get("dead().count")).as("dead().count()").isEqualTo(dead);
          return List.of(x);
        });
  }
}
