package dev.hourglass.internal.store;

import dev.hourglass.internal.store.Replies.Claimed;
import dev.hourglass.internal.store.Replies.ClaimedJob;
import dev.hourglass.internal.store.Replies.Extended;
import dev.hourglass.internal.store.Replies.Nacked;
import dev.hourglass.internal.store.Replies.Promoted;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The scripts of the path from due to done, one method each: claim, ack, nack, extend, release and
 * the promoter's pass. They run on the delivery connection ({@link Script#delivery}), so that a
 * producer's pipelined enqueues never hold them up.
 */
public final class Deliveries {
  private final ScriptRunner runner;
  private final ServerClock serverClock;

  Deliveries(ScriptRunner runner, ServerClock serverClock) {
    this.runner = runner;
    this.serverClock = serverClock;
  }

  public CompletableFuture<Claimed> claim(
      Partition p, int max, long visibilityMs, String receiptPrefix) {
    return runner
        .withSlots(
            p,
            Script.CLAIM,
            slots -> p.argv().add(max).add(visibilityMs).add(receiptPrefix).add(slots.size()))
        .thenApply(
            reply -> {
              long now = Reply.num(reply.get(1));
              serverClock.observe(now);
              List<ClaimedJob> jobs = new ArrayList<>((reply.size() - 2) / 5);
              for (int i = 2; i + 4 < reply.size(); i += 5) {
                jobs.add(
                    new ClaimedJob(
                        Reply.str(reply.get(i)),
                        RecordCodec.decode(Reply.bytes(reply.get(i + 1))),
                        (int) Reply.num(reply.get(i + 2)),
                        Reply.str(reply.get(i + 3)),
                        Reply.num(reply.get(i + 4))));
              }
              return new Claimed(now, jobs);
            });
  }

  /** One delivery: its job id and lease receipt. */
  public record Receipt(String id, String receipt) {}

  /** Acks many deliveries of one partition in one script call; a status per delivery, in order. */
  public CompletableFuture<List<Status>> ack(Partition p, List<Receipt> acks, int replicas) {
    Args keyArgs = p.fixedKeys();
    Args argv = p.argv().add(acks.size());
    for (Receipt a : acks) {
      keyArgs.add(p.pool(a.id()));
      argv.add(a.id()).add(a.receipt());
    }
    return runner
        .run(Script.ACK, keyArgs, argv, replicas)
        .thenApply(
            reply -> {
              List<Status> out = new ArrayList<>(acks.size());
              for (int i = 0; i < acks.size(); i++) {
                out.add(Status.of(Reply.num(reply.get(i + 1))));
              }
              return out;
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
            .add(r.id())
            .add(r.receipt())
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
    Args argv = p.argv().add(r.id()).add(r.receipt()).add(visibilityMs);
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
        .run(Script.RELEASE, p.keysFor(r.id()), p.argv().add(r.id()).add(r.receipt()))
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
    return runner
        .withSlots(
            p,
            Script.PROMOTE,
            slots ->
                p.argv()
                    .add(r.owner())
                    .add(r.lockMs())
                    .add(r.lookaheadMs())
                    .add(r.budget())
                    .add(r.deadMaxAgeMs())
                    .add(r.deadMaxCount())
                    .add(slots.size()))
        .thenApply(
            reply -> {
              long now = Reply.num(reply.get(5));
              serverClock.observe(now);
              return new Promoted(
                  Reply.num(reply.get(1)) == 1,
                  Reply.num(reply.get(2)),
                  Reply.num(reply.get(3)) == 1,
                  Reply.num(reply.get(4)),
                  now,
                  Reply.num(reply.get(6)),
                  Reply.num(reply.get(7)));
            });
  }
}
