package dev.hourglass.micrometer;

import dev.hourglass.Outbox;
import dev.hourglass.archive.Archive;
import dev.hourglass.archive.ArchiveListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The meters of an {@link Archive} (module {@code hourglass-archive}, which this class needs on the
 * class path), on any {@link MeterRegistry}, named as the server's {@code /metrics} names them:
 *
 * <ul>
 *   <li>{@code hourglass.outbox.records{queue}}: a gauge of the finished jobs waiting in Redis's
 *       outbox for the database;
 *   <li>{@code hourglass.outbox.dropped{queue}}: a function counter of the finished jobs dropped
 *       past the outbox's bound, never archived;
 *   <li>{@code hourglass.archive.rows}: a counter of the finished jobs stored in the database;
 *   <li>{@code hourglass.archive.failures}: a counter of the archiver's and the retention's passes
 *       that failed (database or Redis unreachable), each retried.
 * </ul>
 *
 * The two counters come from this object being the archive's {@link ArchiveListener}; the outbox
 * meters read {@link Archive#outboxSizes()}, the archiver's last scan (every few seconds), so they
 * need the running archive. Wiring:
 *
 * <pre>{@code
 * ArchiveMeters meters = new ArchiveMeters(registry);
 * Archive archive = Archive.start(hourglass, ArchiveSettings.builder()
 *     .jdbc(url, user, password).listener(meters).build());
 * meters.bind(archive).registerQueues();
 * }</pre>
 *
 * Queues the archiver finds later get their outbox meters from the next {@link #registerQueues()}
 * (call it before each scrape, or on a schedule). Thread-safe.
 */
public final class ArchiveMeters implements ArchiveListener {
  private static final Outbox.OutboxSize NONE = new Outbox.OutboxSize(0, 0);

  private final MeterRegistry registry;
  private final Counter rows;
  private final Counter failures;
  private final Set<String> queues = ConcurrentHashMap.newKeySet();
  private volatile Archive archive;

  /**
   * Registers the two counters on {@code registry}; no outbox meters until {@link #bind} and {@link
   * #registerQueues()}.
   *
   * @param registry where the meters go
   * @throws NullPointerException when the registry is null
   */
  public ArchiveMeters(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
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
   * Connects the outbox meters to the running archive whose listener this is.
   *
   * @param running the archive started with this object as its listener
   * @return this
   * @throws NullPointerException when the archive is null
   */
  public ArchiveMeters bind(Archive running) {
    this.archive = Objects.requireNonNull(running, "archive");
    return this;
  }

  @Override
  public void archived(String queue, int n) {
    rows.increment(n);
  }

  @Override
  public void failed(Exception cause) {
    failures.increment();
  }

  /**
   * Registers the outbox meters of the queues the archiver found since the last call. Sends nothing
   * to Redis; does nothing before {@link #bind}.
   */
  public void registerQueues() {
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
