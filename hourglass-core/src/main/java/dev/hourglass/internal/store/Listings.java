package dev.hourglass.internal.store;

import dev.hourglass.internal.store.Replies.Counts;
import dev.hourglass.internal.store.Replies.Listed;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The reads of a partition that list and count its jobs: stats, list and due counts, one method per
 * script. Stats and list catch up with the clock themselves, and may ask for slot lists their
 * caller did not declare ({@link Status#NEED_SLOTS}), as due counts may: each is called again with
 * them declared.
 */
public final class Listings {
  private final ScriptRunner runner;
  private final Payloads payloads;

  Listings(ScriptRunner runner, Payloads payloads) {
    this.runner = runner;
    this.payloads = payloads;
  }

  /** Counts of one partition, exact: a catch-up that ran out of budget is continued first. */
  public CompletableFuture<Counts> stats(Partition p) {
    return runner
        .withSlots(p, Script.STATS, slots -> p.argv().add(slots.size()))
        .thenCompose(
            reply -> {
              if (Reply.num(reply.get(1)) == 0) {
                return stats(p); // the catch-up has more to do
              }
              Map<String, Long> counters = new HashMap<>();
              List<Object> flat = Reply.list(reply.get(5));
              for (int i = 0; i + 1 < flat.size(); i += 2) {
                counters.put(Reply.str(flat.get(i)), Reply.num(flat.get(i + 1)));
              }
              return CompletableFuture.completedFuture(
                  new Counts(
                      Reply.num(reply.get(2)),
                      Reply.num(reply.get(3)),
                      Reply.num(reply.get(4)),
                      counters,
                      Reply.num(reply.get(6)) == 1,
                      Reply.num(reply.get(7))));
            });
  }

  /**
   * One page of a partition's jobs in a state (its label), after the cursor (score, member; a null
   * score: from the start); see list.lua. A catch-up that ran out of budget is continued first.
   */
  public CompletableFuture<List<Listed>> list(
      Partition p, String state, Long afterScore, String afterMember, int limit, long slotWidthMs) {
    return runner
        .withSlots(
            p,
            Script.LIST,
            slots ->
                p.argv()
                    .add(state)
                    .add(afterScore == null ? "" : Long.toString(afterScore))
                    .add(afterMember)
                    .add(limit)
                    .add(slotWidthMs)
                    .add(slots.size()))
        .thenCompose(
            reply -> {
              if (Reply.num(reply.get(1)) == 0) {
                return list(p, state, afterScore, afterMember, limit, slotWidthMs);
              }
              List<byte[]> records = new ArrayList<>();
              for (int i = 2; i + 2 < reply.size(); i += 3) {
                records.add(Reply.bytes(reply.get(i + 1)));
              }
              return payloads
                  .ready(p, records)
                  .thenApply(
                      v -> {
                        List<Listed> out = new ArrayList<>();
                        for (int i = 2, r = 0; i + 2 < reply.size(); i += 3, r++) {
                          String member = Reply.str(reply.get(i));
                          out.add(
                              new Listed(
                                  member,
                                  Partition.idOf(member),
                                  payloads.decode(p, records.get(r)),
                                  Reply.num(reply.get(i + 2))));
                        }
                        return out;
                      });
            });
  }

  /** How many delayed jobs of a partition fall due within each horizon (ms, ascending). */
  public CompletableFuture<List<Long>> dueCounts(Partition p, List<Long> horizonsMs) {
    return runner
        .withSlots(
            p,
            Script.DUE_COUNTS,
            slots -> {
              Args argv = p.argv().add(horizonsMs.size());
              horizonsMs.forEach(argv::add);
              return argv.add(slots.size());
            })
        .thenApply(
            reply -> {
              List<Long> counts = new ArrayList<>(horizonsMs.size());
              for (int i = 1; i < reply.size(); i++) {
                counts.add(Reply.num(reply.get(i)));
              }
              return counts;
            });
  }
}
