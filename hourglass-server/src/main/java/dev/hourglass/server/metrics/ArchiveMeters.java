package dev.hourglass.server.metrics;

import dev.hourglass.Outbox;
import dev.hourglass.archive.Archive;
import dev.hourglass.archive.ArchiveListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The archive's meters: {@code hourglass_outbox_records{queue}} (finished jobs waiting in Redis for
 * the database), {@code hourglass_outbox_dropped_total{queue}} (dropped past the outbox's bound),
 * {@code hourglass_archive_rows_total} and {@code hourglass_archive_failures_total}. The outbox
 * meters read the archiver's last scan, every few seconds.
 */
public final class ArchiveMeters implements ArchiveListener {
  private static final Outbox.OutboxSize NONE = new Outbox.OutboxSize(0, 0);

  private final MeterRegistry registry;
  private final Counter rows;
  private final Counter failures;
  private final Set<String> queues = ConcurrentHashMap.newKeySet();
  private volatile Archive archive;

  ArchiveMeters(MeterRegistry registry) {
    this.registry = registry;
    this.rows =
        Counter.builder("hourglass.archive.rows")
            .description("finished jobs stored in the archive database")
            .register(registry);
    this.failures =
        Counter.builder("hourglass.archive.failures")
            .description("archiver passes that failed (database or Redis unreachable)")
            .register(registry);
  }

  /**
   * Connects the outbox meters to the running archive.
   *
   * @param running the archive whose outboxes the meters read
   */
  public void bind(Archive running) {
    this.archive = running;
  }

  @Override
  public void archived(String queue, int n) {
    rows.increment(n);
  }

  @Override
  public void failed(Exception cause) {
    failures.increment();
  }

  /** Registers the outbox meters of queues the archiver found since the last call. */
  void registerQueues() {
    Archive a = archive;
    if (a == null) {
      return;
    }
    for (String q : a.outboxSizes().keySet()) {
      if (queues.add(q)) {
        Gauge.builder("hourglass.outbox.records", () -> size(q).waiting())
            .description("finished jobs waiting in Redis for the archive database")
            .tag("queue", q)
            .register(registry);
        FunctionCounter.builder("hourglass.outbox.dropped", this, m -> m.size(q).dropped())
            .description("finished jobs dropped past the outbox's bound, never archived")
            .tag("queue", q)
            .register(registry);
      }
    }
  }

  private Outbox.OutboxSize size(String queue) {
    Archive a = archive;
    Map<String, Outbox.OutboxSize> sizes = a == null ? Map.of() : a.outboxSizes();
    return sizes.getOrDefault(queue, NONE);
  }
}
