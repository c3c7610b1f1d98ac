package dev.hourglass.internal;

import dev.hourglass.QueueLimits;
import dev.hourglass.QueueSettings;
import dev.hourglass.internal.QueueTopology.Snapshot;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.Replies.QueueRecord;
import dev.hourglass.internal.store.Store;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Writes a queue's flow-control limits ({@link QueueLimits}) into its partitions' meta, where
 * claims read them: each partition its share ({@link QueueLimits#share}). The queue's settings hold
 * the limits themselves; every write of the settings that may change them (an update, or the
 * creation of a queue) writes the partitions after, each with one script call.
 */
final class PartitionLimits {
  private final Store store;

  PartitionLimits(Store store) {
    this.store = store;
  }

  /**
   * Whether an upsert must write the partitions: a queue created with limits (a new queue's
   * partitions have none); an update that sets limits (written again even when the settings held
   * them already, so that a retried update completes one a crash interrupted); an update that
   * changed or removed them.
   */
  boolean needed(boolean createOnly, QueueRecord record, QueueSettings stored) {
    if (record.created() || createOnly) {
      return record.created() && stored.limits().isPresent();
    }
    return stored.limits().isPresent()
        || record.changed().stream().anyMatch(SettingsCodec.LIMIT_FIELDS::contains);
  }

  /** Writes every partition's share of the snapshot's limits (or removes them). */
  CompletableFuture<Snapshot> apply(Snapshot s) {
    List<Partition> parts = s.partitions();
    QueueLimits limits = s.settings().limits().orElse(null);
    CompletableFuture<?>[] writes = new CompletableFuture<?>[parts.size()];
    for (int i = 0; i < writes.length; i++) {
      int index = i;
      int rateMax = 0;
      long periodMs = 0;
      int concurrency = 0;
      if (limits != null) {
        var rate = limits.rate();
        if (rate.isPresent()) {
          rateMax = QueueLimits.share(rate.get().max(), index, parts.size());
          periodMs = rate.get().period().toMillis();
        }
        if (limits.concurrency().isPresent()) {
          concurrency = QueueLimits.share(limits.concurrency().getAsInt(), index, parts.size());
        }
      }
      writes[i] = store.setLimits(parts.get(i), rateMax, periodMs, concurrency);
    }
    return CompletableFuture.allOf(writes).thenApply(done -> s);
  }
}
