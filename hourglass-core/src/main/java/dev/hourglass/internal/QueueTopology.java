package dev.hourglass.internal;

import dev.hourglass.QueueSettings;
import dev.hourglass.internal.store.Failures;
import dev.hourglass.internal.store.Keys;
import dev.hourglass.internal.store.Outboxes;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.Registry;
import dev.hourglass.internal.store.Replies.QueueRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One queue's settings as last read from Redis, and its partitions. The copy is kept until the
 * client's {@link SettingsVersions} shows that some queue's settings changed since it was read; a
 * change made through this client applies at once.
 */
final class QueueTopology {
  /** The settings read at a settings version, and the partitions they give. */
  record Snapshot(QueueSettings settings, List<Partition> partitions, long version) {
    Partition partitionOf(String id) {
      return partitions.get(Keys.partitionOf(id, partitions.size()));
    }

    /**
     * How long before a slot list starts the promoter loads it: one slot width. Scripts take it as
     * the width a slot list covers too (place.lua).
     */
    long lookaheadMs() {
      return settings.slotWidth().toMillis();
    }

    /**
     * How many calls of one kind a client keeps in flight on each partition when {@code perQueue}
     * is what it keeps in flight on a queue of one partition: that budget shared by the partitions,
     * at least one each. So a busy queue's calls in flight do not multiply with its partitions,
     * each partition's calls carry more jobs (on a cluster, fewer script calls per job on each
     * master), and a stalled master still holds up only its own partition.
     */
    int inFlightPerPartition(int perQueue) {
      return Math.max(1, perQueue / partitions.size());
    }

    /** The start of the time slot a job due at {@code dueMs} (server clock) belongs in. */
    long slotStart(long dueMs) {
      return Keys.slotStart(dueMs, settings.slotWidth().toMillis());
    }
  }

  private final String name;
  private final Registry registry;
  private final Outboxes outboxes;
  private final Keys keys;
  private final SettingsVersions versions;
  private final QueueSettings defaults;
  private final PartitionLimits limits;
  private volatile Snapshot current;

  QueueTopology(
      String name,
      Registry registry,
      Outboxes outboxes,
      Keys keys,
      SettingsVersions versions,
      QueueSettings defaults,
      PartitionLimits limits) {
    this.name = name;
    this.registry = registry;
    this.outboxes = outboxes;
    this.keys = keys;
    this.versions = versions;
    this.defaults = defaults;
    this.limits = limits;
  }

  /** The queue's name. */
  String name() {
    return name;
  }

  /**
   * The queue's settings, read again (creating the queue with the client's defaults) when the copy
   * is older than the latest settings version this client knows of.
   */
  CompletableFuture<Snapshot> snapshotAsync() {
    Snapshot s = current;
    return versions
        .current()
        .thenCompose(
            known ->
                s != null && s.version() >= known
                    ? CompletableFuture.completedFuture(s)
                    : upsert(defaults, true));
  }

  Snapshot snapshot() {
    Snapshot s = fresh();
    return s != null ? s : Failures.await(snapshotAsync()); // no future on the common path
  }

  /**
   * The copy {@link #snapshotAsync} would complete with at once, without a future: read, and not
   * older than the latest settings version, checked within {@value SettingsVersions#CHECK_MS} ms;
   * else null.
   */
  Snapshot fresh() {
    Snapshot s = current;
    return s != null && versions.isFresh() && s.version() >= versions.known() ? s : null;
  }

  /**
   * The last copy read, for code that must not wait (on Lettuce's event loop); a job of the queue
   * can only be seen after the copy was read once.
   */
  Snapshot cached() {
    Snapshot s = current;
    return s != null ? s : snapshot();
  }

  /** The settings as stored in Redis now (one read; creates the queue if it does not exist). */
  CompletableFuture<Snapshot> readAsync() {
    return upsert(defaults, true);
  }

  /** Creates the queue with these settings, or updates its settings. */
  Snapshot configure(QueueSettings settings) {
    return Failures.await(upsert(settings, false));
  }

  /** Drops the copy after the queue was deleted: the next use reads (and creates) it again. */
  void forget() {
    current = null;
  }

  private CompletableFuture<Snapshot> upsert(QueueSettings settings, boolean createOnly) {
    return registry
        .upsertQueue(name, createOnly, SettingsCodec.toFields(settings))
        .thenCompose(
            record -> {
              Snapshot s = store(record);
              CompletableFuture<Snapshot> marked =
                  record.created() && record.outboxBound() > 0
                      ? markOutboxes(s, record.outboxBound())
                      : CompletableFuture.completedFuture(s);
              // The partitions enforce the limits the settings now hold (see PartitionLimits).
              return limits.needed(createOnly, record, s.settings())
                  ? marked.thenCompose(limits::apply)
                  : marked;
            });
  }

  /**
   * While finished jobs are recorded for an archive, a queue's partitions record from its creation
   * on: they are marked before any job can be enqueued through this client.
   */
  private CompletableFuture<Snapshot> markOutboxes(Snapshot s, long bound) {
    CompletableFuture<?>[] marks = new CompletableFuture<?>[s.partitions().size()];
    for (int i = 0; i < marks.length; i++) {
      marks[i] = outboxes.read(s.partitions().get(i), bound, 0);
    }
    return CompletableFuture.allOf(marks).thenApply(done -> s);
  }

  private Snapshot store(QueueRecord record) {
    QueueSettings stored = SettingsCodec.fromFields(record.fields());
    Snapshot before = current;
    List<Partition> parts;
    if (before != null
        && before.settings().partitions() == stored.partitions()
        && before.settings().pools() == stored.pools()) {
      parts = before.partitions(); // the same objects: callers key per-partition state by them
    } else {
      List<Partition> fresh = new ArrayList<>();
      for (int p = 0; p < stored.partitions(); p++) {
        fresh.add(keys.partition(name, p, stored.partitions(), stored.pools()));
      }
      parts = List.copyOf(fresh);
    }
    Snapshot s = new Snapshot(stored, parts, record.version());
    current = s;
    return s;
  }
}
