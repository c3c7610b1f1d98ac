package dev.hourglass.internal;

import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.ScheduleCalls;
import dev.hourglass.internal.store.ServerClock;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Gives schedules whose upcoming times run low more of them, for the promoters: the scripts that
 * enqueue occurrences mark such a schedule (includes/schedule.lua), and every second each promoter
 * of this client refills and repairs the marked schedules of its partition (sched_refill.lua: a
 * schedule with no pending occurrence gets one). Any number of clients may do it at once: a refill
 * computed from a state that changed meanwhile changes nothing.
 */
final class ScheduleKeeper {
  /** How far back of the clock estimate times are listed: the scripts skip those already past. */
  static final long SLACK_MS = 5000;

  private final ScheduleCalls calls;
  private final ServerClock clock;

  ScheduleKeeper(ScheduleCalls calls, ServerClock clock) {
    this.calls = calls;
    this.clock = clock;
  }

  /** Refills the marked schedules of a partition; the future completes when all are done. */
  CompletableFuture<Void> keep(Partition p) {
    return calls
        .wanting(p)
        .thenCompose(
            ids ->
                CompletableFuture.allOf(
                    ids.stream().map(id -> refill(p, id)).toArray(CompletableFuture<?>[]::new)));
  }

  private CompletableFuture<Boolean> refill(Partition p, String id) {
    return calls
        .read(p, id)
        .thenCompose(
            st -> {
              if (st == null) {
                return calls.refill(p, id, -1, true, List.of()); // gone: unmarks it
              }
              long from = Math.max(Math.max(st.lastMs(), st.pendingMs()), clock.nowMs() - SLACK_MS);
              ScheduleTimes.Upcoming up =
                  ScheduleTimes.of(ScheduleDefinition.decode(st.definition())).after(from);
              return calls.refill(p, id, st.version(), up.complete(), up.times());
            });
  }
}
