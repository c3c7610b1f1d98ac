package dev.hourglass.server.metrics;

import dev.hourglass.Hourglass;
import dev.hourglass.QueueStats;
import dev.hourglass.spi.ScriptListener;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's Prometheus metrics.
 *
 * <ul>
 *   <li>Per queue, from the counters and counts Hourglass keeps in Redis (so every server instance
 *       reports the queue's whole truth): {@code hourglass_jobs_enqueued_total}, {@code
 *       _delivered_total}, {@code _acked_total}, {@code _retried_total}, {@code _dead_total},
 *       {@code _expired_total}, and the gauge {@code
 *       hourglass_jobs{state=delayed|ready|inflight|dead}}. Read at scrape time, at most once per
 *       {@value #STATS_MAX_AGE_MS} ms per queue.
 *   <li>{@code hourglass_delivery_lateness_seconds{queue,mode=pull|push}}: delivery time minus due
 *       time, a histogram, for deliveries made by this server.
 *   <li>{@code http_server_requests_seconds{method,route,status}}.
 *   <li>{@code hourglass_redis_script_seconds{script,outcome}}: latency of every Lua script call.
 * </ul>
 */
public final class Metrics implements ScriptListener {
  private static final Logger log = LoggerFactory.getLogger(Metrics.class);
  private static final long STATS_MAX_AGE_MS = 1000;

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Map<String, QueueMeters> queues = new ConcurrentHashMap<>();
  private volatile Hourglass hourglass;

  /** Connects the per-queue meters to the client (built after this, as it takes the listener). */
  public void bind(Hourglass hourglass) {
    this.hourglass = hourglass;
  }

  @Override
  public void scriptCalled(String script, Duration elapsed, Throwable failure) {
    Timer.builder("hourglass.redis.script")
        .description("Latency of Hourglass's Lua script calls to Redis")
        .tags("script", script, "outcome", failure == null ? "ok" : "error")
        .register(registry)
        .record(elapsed);
  }

  public void httpRequest(String method, String route, int status, long nanos) {
    Timer.builder("http.server.requests")
        .description("HTTP requests served")
        .tags("method", method, "route", route, "status", Integer.toString(status))
        .register(registry)
        .record(Duration.ofNanos(nanos));
  }

  /** A job was handed to a consumer ({@code pull}) or a push endpoint ({@code push}). */
  public void delivered(String queue, String mode, Instant dueAt) {
    long lateMs = Math.max(0, System.currentTimeMillis() - dueAt.toEpochMilli());
    Timer.builder("hourglass.delivery.lateness")
        .description("Delivery time minus due time")
        .tags("queue", queue, "mode", mode)
        .publishPercentileHistogram()
        .maximumExpectedValue(Duration.ofMinutes(10))
        .register(registry)
        .record(Duration.ofMillis(lateMs));
  }

  /** The Prometheus text of every meter, with per-queue meters registered for new queues. */
  public String scrape() {
    Hourglass h = hourglass;
    if (h != null) {
      try {
        for (String name : h.queueNames()) {
          queues.computeIfAbsent(name, n -> new QueueMeters(n));
        }
      } catch (RuntimeException e) {
        log.debug("cannot list queues for metrics: {}", e.getMessage());
      }
    }
    return registry.scrape();
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
      gauge("delayed", tags, QueueStats::delayed);
      gauge("ready", tags, QueueStats::ready);
      gauge("inflight", tags, QueueStats::inflight);
      gauge("dead", tags, QueueStats::dead);
    }

    private void counter(String name, String help, Tags tags, ToDoubleFunction<QueueStats> f) {
      FunctionCounter.builder("hourglass.jobs." + name, this, m -> m.read(f))
          .description(help)
          .tags(tags)
          .register(registry);
    }

    private void gauge(String state, Tags tags, ToDoubleFunction<QueueStats> f) {
      Gauge.builder("hourglass.jobs", this, m -> m.read(f))
          .description("Jobs per state now")
          .tags(tags.and("state", state))
          .register(registry);
    }

    private double read(ToDoubleFunction<QueueStats> f) {
      long now = System.currentTimeMillis();
      if (stats == null || now - readAtMs > STATS_MAX_AGE_MS) {
        try {
          stats = hourglass.queue(queue).stats();
          readAtMs = now;
        } catch (RuntimeException e) {
          log.debug("cannot read stats of {} for metrics: {}", queue, e.getMessage());
        }
      }
      QueueStats s = stats;
      return s == null ? Double.NaN : f.applyAsDouble(s);
    }
  }
}
