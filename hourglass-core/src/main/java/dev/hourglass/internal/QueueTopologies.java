package dev.hourglass.internal;

import dev.hourglass.QueueSettings;
import dev.hourglass.internal.store.Store;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The {@link QueueTopology} of each queue this client has touched, one per queue name: the queue's
 * engine, its promoters and the outbox share it, so a settings change seen by one is seen by all.
 */
final class QueueTopologies {
  private final Store store;
  private final SettingsVersions versions;
  private final QueueSettings defaults;
  private final ConcurrentMap<String, QueueTopology> byName = new ConcurrentHashMap<>();

  QueueTopologies(Store store, SettingsVersions versions, QueueSettings defaults) {
    this.store = store;
    this.versions = versions;
    this.defaults = defaults;
  }

  /** The topology of the queue of this (checked) name. */
  QueueTopology of(String name) {
    return byName.computeIfAbsent(
        name,
        n ->
            new QueueTopology(
                n,
                store.registry(),
                store.outboxes(),
                store.keys(),
                versions,
                defaults,
                new PartitionLimits(store)));
  }
}
