package dev.hourglass.internal.store;

import dev.hourglass.internal.store.Replies.OutboxEntry;
import dev.hourglass.internal.store.Replies.OutboxRead;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The calls on partitions' outboxes of finished jobs (outbox.lua). */
public final class Outboxes {
  private final ScriptRunner runner;
  private final Payloads payloads;

  Outboxes(ScriptRunner runner, Payloads payloads) {
    this.runner = runner;
    this.payloads = payloads;
  }

  /**
   * Reads up to {@code max} outbox records of a partition, oldest first, after marking it: {@code
   * bound} > 0 records finished jobs with that bound, -1 stops recording, 0 leaves it as it is.
   */
  public CompletableFuture<OutboxRead> read(Partition p, long bound, int max) {
    return runner
        .run(Script.OUTBOX, p.fixedKeys(), p.argv().add("read").add(bound).add(max))
        .thenCompose(
            reply -> {
              List<byte[]> records = new ArrayList<>();
              for (int i = 3; i + 1 < reply.size(); i += 2) {
                List<Object> flat = Reply.list(reply.get(i + 1));
                for (int f = 0; f + 1 < flat.size(); f += 2) {
                  if (Reply.str(flat.get(f)).equals("r")) {
                    records.add(Reply.bytes(flat.get(f + 1)));
                  }
                }
              }
              return payloads.ready(p, records).thenApply(v -> read(p, reply));
            });
  }

  private OutboxRead read(Partition p, List<Object> reply) {
    List<OutboxEntry> entries = new ArrayList<>();
    for (int i = 3; i + 1 < reply.size(); i += 2) {
      List<Object> flat = Reply.list(reply.get(i + 1));
      String id = null;
      String outcome = null;
      long finished = 0;
      byte[] rec = null;
      for (int f = 0; f + 1 < flat.size(); f += 2) {
        switch (Reply.str(flat.get(f))) {
          case "m" -> id = Partition.idOf(Reply.str(flat.get(f + 1)));
          case "o" -> outcome = Reply.str(flat.get(f + 1));
          case "t" -> finished = Long.parseLong(Reply.str(flat.get(f + 1)));
          case "r" -> rec = Reply.bytes(flat.get(f + 1));
          default -> {} // none: the layout is versioned
        }
      }
      entries.add(
          new OutboxEntry(Reply.str(reply.get(i)), id, outcome, finished, payloads.decode(p, rec)));
    }
    return new OutboxRead(Reply.num(reply.get(1)), Reply.num(reply.get(2)), entries);
  }

  /** Deletes stored outbox records of a partition: how many were there. */
  public CompletableFuture<Long> remove(Partition p, List<String> recordIds) {
    return runner
        .run(Script.OUTBOX, p.fixedKeys(), p.argv().add("remove").addAll(recordIds))
        .thenApply(reply -> Reply.num(reply.get(1)));
  }
}
