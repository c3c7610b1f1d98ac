package dev.hourglass.micrometer;

import dev.hourglass.Delivery;
import dev.hourglass.Hourglass;
import dev.hourglass.QueueStats;
import dev.hourglass.spi.ScriptListener;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Micrometer meters for one Hourglass client, on any {@link MeterRegistry}.
 *
 * <ul>
 *   <li>Per queue (tag {@code queue}), from the counters and counts Hourglass keeps in Redis, so
 *       every process reports the queue's whole truth: the function counters {@code
 *       hourglass.jobs.enqueued}, {@code .delivered}, {@code .acked}, {@code .retried}, {@code
 *       .dead}, {@code .expired}, {@code .cancelled}, {@code .occurrences} (of schedules), and the
 *       gauge {@code hourglass.jobs{state=delayed|ready|inflight|dead}} and {@code
 *       hourglass.jobs.held.back} (the ready jobs the queue's flow-control limits hold back now,
 *       {@link QueueStats#heldBack()}). All of a queue's meters read one cached {@link QueueStats},
 *       fetched from Redis at most once per {@value #STATS_MAX_AGE_MS} ms (one script call per
 *       partition) when the registry is read; a failed read keeps the last values (NaN before the
 *       first success).
 *   <li>{@code hourglass.redis.script{script,outcome=ok|error}}: a histogram of every Lua script
 *       call's latency (buckets 0.25 ms to 1 s), when this object is the client's {@link
 *       ScriptListener}.
 *   <li>{@code hourglass.delivery.lateness{queue,mode}}: a histogram of delivery time minus due
 *       time (buckets 1 ms to 5 min), for the deliveries reported to {@link #delivered}, and for a
 *       forwarder's publishes ({@code mode=forward}) through {@link #forwarded}.
 * </ul>
 *
 * <p>The archive's meters are {@link ArchiveMeters}.
 *
 * <p>Wiring: the client takes the listener when it is built, and the per-queue meters need the
 * client, so build in this order:
 *
 * <pre>{@code
 * HourglassMetrics metrics = new HourglassMetrics(registry);
 * Hourglass hourglass = Hourglass.builder().redisUri(uri).scriptListener(metrics).build();
 * metrics.bind(hourglass).registerQueues();
 * }</pre>
 *
 * Queues created later get meters from the next {@link #registerQueues()} (call it before each
 * scrape, or on a schedule) or from {@link #registerQueue}. Thread-safe.
 */
public final class HourglassMetrics implements ScriptListener {
  private static final Logger log = LoggerFactory.getLogger(HourglassMetrics.class);
  private static final long STATS_MAX_AGE_MS = 1000;

  /**
   * Bucket bounds of the latency histograms: a bounded set (so a Prometheus user can take p99
   * across instances with {@code histogram_quantile}) instead of Micrometer's 70-odd default ones.
   */
  static final Duration[] SCRIPT_BUCKETS = millis(0.25, 0.5, 1, 2, 5, 10, 25, 50, 100, 250, 1000);

  static final Duration[] LATENESS_BUCKETS =
      millis(1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000, 300_000);

  /** Bucket bounds for request latencies, e.g. an HTTP server's. */
  public static final Duration[] REQUEST_BUCKETS =
      millis(1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000);

  private static Duration[] millis(double... bounds) {
    Duration[] out = new Duration[bounds.length];
    for (int i = 0; i < bounds.length; i++) {
      out[i] = Duration.ofNanos((long) (bounds[i] * 1_000_000));
    }
    return out;
  }

  private final MeterRegistry registry;
  private final Map<String, QueueMeters> queues = new ConcurrentHashMap<>();
  private volatile Hourglass hourglass;

  /**
   * Meters registered on {@code registry}; no queue meters until {@link #bind} and register.
   *
   * @param registry where the meters go
   * @throws NullPointerException when the registry is null
   */
  public HourglassMetrics(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  /**
   * The registry the meters are on.
   *
   * @return the registry given at construction
   */
  public MeterRegistry registry() {
    return registry;
  }

  /**
   * Connects the per-queue meters to the client whose queues they report.
   *
   * @param hourglass the client; binding the same one again does nothing
   * @return this
   * @throws IllegalStateException when already bound to another client
   * @throws NullPointerException when the client is null
   */
  public HourglassMetrics bind(Hourglass hourglass) {
    Objects.requireNonNull(hourglass, "hourglass");
    synchronized (this) {
      if (this.hourglass != null && this.hourglass != hourglass) {
        throw new IllegalStateException("HourglassMetrics is already bound to another client");
      }
      this.hourglass = hourglass;
    }
    return this;
  }

  /**
   * Registers the meters of every queue the client lists ({@link Hourglass#queueNames()}) that has
   * none yet: one Redis call, then nothing for the queues already known. Does nothing before {@link
   * #bind}; when Redis cannot be reached it logs at debug and registers nothing.
   */
  public void registerQueues() {
    Hourglass h = hourglass;
    if (h == null) {
      return;
    }
    try {
      h.queueNames().forEach(this::registerQueue);
    } catch (RuntimeException e) {
      log.debug("cannot list queues for metrics: {}", e.getMessage());
    }
  }

  /**
   * Registers the meters of this queue, if it has none yet. Before {@link #bind} they read NaN.
   *
   * @param name the queue name
   * @throws NullPointerException when the name is null
   */
  public void registerQueue(String name) {
    Objects.requireNonNull(name, "name");
    queues.computeIfAbsent(name, QueueMeters::new);
  }

  @Override
  public void scriptCalled(String script, Duration elapsed, Throwable failure) {
    Timer.builder("hourglass.redis.script")
        .description("Latency of Hourglass's Lua script calls to Redis")
        .tags("script", script, "outcome", failure == null ? "ok" : "error")
        .serviceLevelObjectives(SCRIPT_BUCKETS)
        .register(registry)
        .record(elapsed);
  }

  /**
   * Records that a job due at {@code dueAt} was delivered now, as the timer {@code
   * hourglass.delivery.lateness} (delivery time minus due time, at least 0) tagged by queue and
   * mode.
   *
   * @param queue the queue name
   * @param mode how it was delivered, e.g. {@code pull} (to a consumer) or {@code push} (to an
   *     endpoint)
   * @param dueAt the job's due time
   */
  public void delivered(String queue, String mode, Instant dueAt) {
    long lateMs = Math.max(0, System.currentTimeMillis() - dueAt.toEpochMilli());
    Timer.builder("hourglass.delivery.lateness")
        .description("Delivery time minus due time")
        .tags("queue", queue, "mode", mode)
        .serviceLevelObjectives(LATENESS_BUCKETS)
        .register(registry)
        .record(Duration.ofMillis(lateMs));
  }

  /**
   * What a forwarder (module {@code hourglass-forward}) reports each job it publishes to, so that
   * its lateness is recorded as {@code hourglass.delivery.lateness{queue,mode=forward}}, as the
   * server records its forwarders': {@code
   * ForwarderOptions.builder().onPublished(metrics.forwarded("orders"))}.
   *
   * @param queue the forwarded queue's name
   * @return a listener for {@code ForwarderOptions.onPublished}; cheap, does not block
   * @throws NullPointerException when the queue is null
   */
  public Consumer<Delivery<?>> forwarded(String queue) {
    Objects.requireNonNull(queue, "queue");
    return job -> delivered(queue, "forward", job.dueAt());
  }

  /** The meters of one queue, read from one cached {@link QueueStats}. */
  private final class QueueMeters {
    private final String queue;
    private volatile QueueStats stats;
    private volatile long readAtMs;

    QueueMeters(String queue) {
      this.queue = queue;
      Tags tags = Tags.of("queue", queue);
      counter("enqueued", "Jobs created", tags, s -> s.counters().enqueued());
      counter(
          "delivered",
          "Deliveries to consumers (every attempt)",
          tags,
          s -> s.counters().delivered());
      counter("acked", "Jobs finished by ack", tags, s -> s.counters().acked());
      counter(
          "retried",
          "Failed or expired deliveries scheduled again",
          tags,
          s -> s.counters().retried());
      counter("dead", "Jobs that went dead", tags, s -> s.counters().dead());
      counter("expired", "Jobs dropped by their ttl", tags, s -> s.counters().expired());
      counter("cancelled", "Jobs removed by cancel", tags, s -> s.counters().cancelled());
      counter(
          "occurrences",
          "Occurrences of schedules enqueued",
          tags,
          s -> s.counters().occurrences());
      gauge("delayed", tags, QueueStats::delayed);
      gauge("ready", tags, QueueStats::ready);
      gauge("inflight", tags, QueueStats::inflight);
      gauge("dead", tags, QueueStats::dead);
      Gauge.builder("hourglass.jobs.held.back", this, m -> m.read(QueueStats::heldBack))
          .description("Ready jobs the queue's flow-control limits hold back now")
          .tags(tags)
          .strongReference(true)
          .register(registry);
    }

    private void counter(String name, String help, Tags tags, ToDoubleFunction<QueueStats> f) {
      FunctionCounter.builder("hourglass.jobs." + name, this, m -> m.read(f))
          .description(help)
          .tags(tags)
          .register(registry);
    }

    private void gauge(String state, Tags tags, ToDoubleFunction<QueueStats> f) {
      // Meters hold their object weakly; the gauges' strong reference keeps this object, and so
      // every meter of the queue, alive for as long as the registry is.
      Gauge.builder("hourglass.jobs", this, m -> m.read(f))
          .description("Jobs per state now")
          .tags(tags.and("state", state))
          .strongReference(true)
          .register(registry);
    }

    private double read(ToDoubleFunction<QueueStats> f) {
      Hourglass h = hourglass;
      long now = System.currentTimeMillis();
      if (h != null && (readAtMs == 0 || now - readAtMs > STATS_MAX_AGE_MS)) {
        readAtMs = now; // a failed read, too, waits its second before the next try
        try {
          stats = h.queue(queue).stats();
        } catch (RuntimeException e) {
          log.debug("cannot read stats of {} for metrics: {}", queue, e.getMessage());
        }
      }
      QueueStats s = stats;
      return s == null ? Double.NaN : f.applyAsDouble(s);
    }
  }
}
