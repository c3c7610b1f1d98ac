package dev.hourglass.internal.store;

import dev.hourglass.HourglassException;
import dev.hourglass.internal.store.Replies.Claimed;
import dev.hourglass.internal.store.Replies.ClaimedJob;
import dev.hourglass.internal.store.Replies.Extended;
import dev.hourglass.internal.store.Replies.Nacked;
import dev.hourglass.internal.store.Replies.Promoted;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The scripts of the path from due to done, one method each: claim, ack, nack, extend, release and
 * the promoter's pass. They run on the delivery connection ({@link Script#delivery}), so that a
 * producer's pipelined enqueues never hold them up.
 */
public final class Deliveries {
  private final ScriptRunner runner;
  private final ServerClock serverClock;
  private final Payloads payloads;

  Deliveries(ScriptRunner runner, ServerClock serverClock, Payloads payloads) {
    this.runner = runner;
    this.serverClock = serverClock;
    this.payloads = payloads;
  }

  /**
   * Leases up to {@code max} ready jobs of a partition, each for {@code visibilityMs} (0: its own
   * visibility), under the lease {@code token} (random, one per claim), which Redis keeps with each
   * lease; each delivery's receipt is the token and the job's own mark ({@link Receipts}).
   */
  public CompletableFuture<Claimed> claim(Partition p, int max, long visibilityMs, String token) {
    return claim(p, max, visibilityMs, token, 0);
  }

  /** Rounds of clock work one claim runs at most before it claims ({@link Status#CATCH_UP}). */
  private static final int MAX_CATCH_UP_ROUNDS = 100;

  private CompletableFuture<Claimed> claim(
      Partition p, int max, long visibilityMs, String token, int round) {
    return runner
        .run(Script.CLAIM, p.keysWithAllPools(), p.argv().add(max).add(visibilityMs).add(token))
        .thenCompose(
            reply -> {
              if (Reply.status(reply) == Status.CATCH_UP) {
                if (round >= MAX_CATCH_UP_ROUNDS) {
                  return CompletableFuture.failedFuture(
                      new HourglassException(p + " kept asking for its clock work"));
                }
                return catchUp(p).thenCompose(v -> claim(p, max, visibilityMs, token, round + 1));
              }
              List<byte[]> records = new ArrayList<>((reply.size() - 3) / 2);
              for (int i = 4; i < reply.size(); i += 2) {
                records.add(Reply.bytes(reply.get(i)));
              }
              return payloads
                  .ready(p, records, true)
                  .thenApply(v -> claimed(p, reply, records, visibilityMs, token));
            });
  }

  /** What one run of clock.lua did: jobs it made ready, and whether a budget ran out. */
  private record Clocked(long madeReady, boolean more) {}

  /** The budget of one clock.lua step (jobs moved at most) a claim runs. */
  private static final int CLAIM_CLOCK_BUDGET = 1000;

  /**
   * Runs a partition's clock work that has fallen due (clock.lua) to the end, as a claim needs it
   * first: slot lists that start by now, no dead-letter retention.
   */
  private CompletableFuture<Void> catchUp(Partition p) {
    return clock(p, 1, CLAIM_CLOCK_BUDGET, 0, 0, false)
        .thenCompose(c -> c.more() ? catchUp(p) : CompletableFuture.<Void>completedFuture(null));
  }

  /** One run of clock.lua. */
  private CompletableFuture<Clocked> clock(
      Partition p,
      long lookaheadMs,
      int budget,
      long deadMaxAgeMs,
      long deadMaxCount,
      boolean retention) {
    return runner
        .withSlots(
            p,
            Script.CLOCK,
            slots ->
                p.argv()
                    .add(lookaheadMs)
                    .add(budget)
                    .add(deadMaxAgeMs)
                    .add(deadMaxCount)
                    .add(retention ? "1" : "0")
                    .add(slots.size()))
        .thenApply(reply -> new Clocked(Reply.num(reply.get(1)), Reply.num(reply.get(2)) == 1));
  }

  private Claimed claimed(
      Partition p, List<Object> reply, List<byte[]> records, long visibilityMs, String token) {
    long now = Reply.num(reply.get(1));
    serverClock.observe(p, now);
    List<ClaimedJob> jobs = new ArrayList<>(records.size());
    for (int i = 3, r = 0; i + 1 < reply.size(); i += 2, r++) {
      RecordCodec.Decoded record = payloads.decode(p, records.get(r));
      long vis = visibilityMs > 0 ? visibilityMs : record.visibilityMs();
      String id = Partition.idOf(Reply.bytes(reply.get(i)));
      jobs.add(
          new ClaimedJob(
              id, record, record.attempts() + 1, Receipts.receipt(token, id), now + vis));
    }
    // The script answers grouped by pool: delivered in claim order, the highest priority first,
    // then the oldest due, then the lowest id.
    jobs.sort(CLAIM_ORDER);
    long heldUntil = Reply.num(reply.get(2));
    return new Claimed(now, jobs, heldUntil == 0 ? 0 : Math.max(1, heldUntil - now));
  }

  private static final Comparator<ClaimedJob> CLAIM_ORDER = Deliveries::claimOrder;

  private static int claimOrder(ClaimedJob a, ClaimedJob b) {
    int c = Integer.compare(b.record().priority(), a.record().priority());
    if (c == 0) {
      c = Long.compare(a.record().due(), b.record().due());
    }
    return c != 0 ? c : a.id().compareTo(b.id());
  }

  /** One delivery: its job id and lease receipt. */
  public record Receipt(String id, String receipt) {}

  /**
   * Acks many deliveries of one partition in one script call; a status per delivery, in order. A
   * delivery acked twice in one list counts once: the later is {@code NOT_FOUND}, or the earlier's
   * refusal.
   */
  public CompletableFuture<List<Status>> ack(Partition p, List<Receipt> acks, int replicas) {
    // Grouped by pool, as ack.lua takes them; each group's positions in acks, in order.
    Map<Integer, List<Integer>> groups = new LinkedHashMap<>();
    Map<Receipt, Integer> firstOf = new HashMap<>();
    int[] repeatOf = new int[acks.size()];
    String[] members = new String[acks.size()];
    for (int i = 0; i < acks.size(); i++) {
      // The same delivery twice counts once; two deliveries of one job are both sent, and at
      // most one holds the job's lease.
      Integer first = firstOf.putIfAbsent(acks.get(i), i);
      repeatOf[i] = first == null ? -1 : first;
      if (first == null) {
        members[i] = p.member(acks.get(i).id());
        groups.computeIfAbsent(Partition.poolOfMember(members[i]), k -> new ArrayList<>()).add(i);
      }
    }
    Args keyArgs = p.fixedKeys();
    Args argv = p.argv().add(groups.size());
    Blob blob = new Blob(acks.size() * 48);
    int[] sentOrder = new int[acks.size()];
    int sent = 0;
    for (Map.Entry<Integer, List<Integer>> g : groups.entrySet()) {
      keyArgs.add(p.poolKeyBytes(g.getKey()));
      argv.add(g.getValue().size());
      for (int i : g.getValue()) {
        blob.shortText(members[i])
            .shortText(Receipts.leaseOf(acks.get(i).receipt(), acks.get(i).id()));
        sentOrder[sent++] = i;
      }
    }
    argv.add(blob.toBytes());
    return runner
        .run(Script.ACK, keyArgs, argv, replicas)
        .thenApply(
            reply -> {
              Status[] out = new Status[acks.size()];
              java.util.Arrays.fill(out, Status.OK);
              for (int r = 1; r + 1 < reply.size(); r += 2) {
                out[sentOrder[(int) Reply.num(reply.get(r)) - 1]] =
                    Status.of(Reply.num(reply.get(r + 1)));
              }
              for (int i = 0; i < acks.size(); i++) {
                if (repeatOf[i] >= 0) {
                  Status first = out[repeatOf[i]];
                  out[i] = first == Status.OK ? Status.NOT_FOUND : first;
                }
              }
              return List.of(out);
            });
  }

  public CompletableFuture<Nacked> nack(
      Partition p,
      Receipt r,
      String error,
      long delayMs,
      boolean kill,
      long slotStart,
      long lookaheadMs,
      int replicas) {
    Args keyArgs = p.keysFor(r.id()).add(p.slot(slotStart));
    Args argv =
        p.argv()
            .add(p.member(r.id()))
            .add(Receipts.leaseOf(r.receipt(), r.id()))
            .add(error)
            .add(delayMs)
            .add(kill ? "1" : "0")
            .add(slotStart)
            .add(lookaheadMs);
    return runner
        .run(Script.NACK, keyArgs, argv, replicas)
        .thenApply(
            reply -> {
              Status status = Reply.status(reply);
              if (status != Status.OK) {
                return new Nacked(status, false, 0);
              }
              return new Nacked(
                  status, "dead".equals(Reply.str(reply.get(1))), Reply.num(reply.get(2)));
            });
  }

  public CompletableFuture<Extended> extend(Partition p, Receipt r, long visibilityMs) {
    Args argv =
        p.argv().add(p.member(r.id())).add(Receipts.leaseOf(r.receipt(), r.id())).add(visibilityMs);
    return runner
        .run(Script.EXTEND, p.keysFor(r.id()), argv)
        .thenApply(
            reply -> {
              Status status = Reply.status(reply);
              return new Extended(status, status == Status.OK ? Reply.num(reply.get(1)) : 0);
            });
  }

  public CompletableFuture<Status> release(Partition p, Receipt r) {
    return runner
        .run(
            Script.RELEASE,
            p.keysFor(r.id()),
            p.argv().add(p.member(r.id())).add(Receipts.leaseOf(r.receipt(), r.id())))
        .thenApply(Reply::status);
  }

  // ---- promote ----

  /** What a promoter pass is given; see promote.lua. */
  public record PromoteRequest(
      String owner,
      long lockMs,
      long lookaheadMs,
      int budget,
      long deadMaxAgeMs,
      long deadMaxCount) {}

  public CompletableFuture<Promoted> promote(Partition p, PromoteRequest r) {
    return promote(p, r, 0, 0);
  }

  /** Rounds of clock work one promoter pass runs at most; then it answers "more". */
  private static final int MAX_CLOCK_ROUNDS = 16;

  private CompletableFuture<Promoted> promote(
      Partition p, PromoteRequest r, long madeReady, int round) {
    Args argv =
        p.argv()
            .add(r.owner())
            .add(r.lockMs())
            .add(r.lookaheadMs())
            .add(r.deadMaxAgeMs())
            .add(r.deadMaxCount());
    return runner
        .run(Script.PROMOTE, p.fixedKeys(), argv)
        .thenCompose(
            reply -> {
              if (Reply.status(reply) != Status.CATCH_UP) {
                long now = Reply.num(reply.get(5));
                serverClock.observe(p, now);
                return CompletableFuture.completedFuture(
                    new Promoted(
                        Reply.num(reply.get(1)) == 1,
                        madeReady,
                        false,
                        Reply.num(reply.get(4)),
                        now,
                        Reply.num(reply.get(6)),
                        Reply.num(reply.get(7))));
              }
              return clock(p, r.lookaheadMs(), r.budget(), r.deadMaxAgeMs(), r.deadMaxCount(), true)
                  .thenCompose(
                      c -> {
                        long made = madeReady + c.madeReady();
                        if (round + 1 >= MAX_CLOCK_ROUNDS) {
                          long now = serverClock.nowMs();
                          return CompletableFuture.completedFuture(
                              new Promoted(true, made, true, now, now, 0, now));
                        }
                        return promote(p, r, made, round + 1);
                      });
            });
  }
}
