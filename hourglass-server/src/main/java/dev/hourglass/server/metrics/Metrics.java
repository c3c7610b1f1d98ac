package dev.hourglass.server.metrics;

import dev.hourglass.Hourglass;
import dev.hourglass.micrometer.ArchiveMeters;
import dev.hourglass.micrometer.HourglassMetrics;
import dev.hourglass.server.series.LatenessSamples;
import dev.hourglass.spi.ScriptListener;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The server's Prometheus metrics: the meters of {@link HourglassMetrics} (per-queue {@code
 * hourglass_jobs_*_total} counters and the {@code hourglass_jobs{state}} gauge, {@code
 * hourglass_redis_script_seconds}, {@code
 * hourglass_delivery_lateness_seconds{queue,mode=pull|push}} for this server's deliveries) and
 * {@code http_server_requests_seconds{method,route,status}}, each latency a histogram of a bounded
 * set of buckets; and the JVM's and the process's metrics ({@code jvm_*}, {@code process_*}, {@code
 * system_cpu_*}); and {@code hourglass_claims_waiting}, the long polls this server holds, and
 * {@code hourglass_http_connections}, its open HTTP connections; and, with an archive, the meters
 * of {@link ArchiveMeters}.
 */
public final class Metrics implements ScriptListener {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final HourglassMetrics hourglassMetrics = new HourglassMetrics(registry);
  private final LatenessSamples lateness = new LatenessSamples();
  private final ArchiveMeters archive = new ArchiveMeters(registry);

  /** The server's registry, with the JVM's and the process's meters bound. */
  public Metrics() {
    // The JVM's and the process's own, as every Java service exports them.
    new ClassLoaderMetrics().bindTo(registry);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
  }

  /**
   * Connects the per-queue meters to the client (built after this, as it takes the listener).
   *
   * @param hourglass the server's client
   */
  public void bind(Hourglass hourglass) {
    hourglassMetrics.bind(hourglass);
  }

  @Override
  public void scriptCalled(String script, Duration elapsed, Throwable failure) {
    hourglassMetrics.scriptCalled(script, elapsed, failure);
  }

  /** One timer per method, route and status, found again without building its meter id. */
  private record RequestKey(String method, String route, int status) {}

  private final ConcurrentMap<RequestKey, Timer> requestTimers = new ConcurrentHashMap<>();

  /**
   * Records a served request in {@code http.server.requests}.
   *
   * @param method the HTTP method
   * @param route the matched route's path template, or {@code unmatched}
   * @param status the answer's status
   * @param nanos how long it took to answer
   */
  public void httpRequest(String method, String route, int status, long nanos) {
    requestTimers
        .computeIfAbsent(new RequestKey(method, route, status), this::requestTimer)
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  private Timer requestTimer(RequestKey k) {
    return Timer.builder("http.server.requests")
        .description("HTTP requests served")
        .tags("method", k.method(), "route", k.route(), "status", Integer.toString(k.status()))
        .serviceLevelObjectives(HourglassMetrics.REQUEST_BUCKETS)
        .register(registry);
  }

  /**
   * Counts the long-poll claims this server holds now, as {@code hourglass_claims_waiting}.
   *
   * @param count read at each scrape
   */
  public void claimsWaiting(Supplier<Number> count) {
    Gauge.builder("hourglass.claims.waiting", count)
        .description("long-poll claims waiting on this server now")
        .register(registry);
  }

  /**
   * Counts the HTTP connections open now, as {@code hourglass_http_connections}.
   *
   * @param count read at each scrape
   */
  public void httpConnections(Supplier<Number> count) {
    Gauge.builder("hourglass.http.connections", count)
        .description("HTTP connections open on this server now (at most --max-connections)")
        .register(registry);
  }

  /**
   * A job was handed to a consumer ({@code pull}) or a push endpoint ({@code push}): its lateness
   * goes into the histogram and the dashboard's samples.
   *
   * @param queue the job's queue
   * @param mode {@code pull} or {@code push}
   * @param dueAt when the job was due
   */
  public void delivered(String queue, String mode, Instant dueAt) {
    hourglassMetrics.delivered(queue, mode, dueAt);
    lateness.record(queue, System.currentTimeMillis() - dueAt.toEpochMilli());
  }

  /**
   * The archive's meters, which are also its listener.
   *
   * @return the meters
   */
  public ArchiveMeters archive() {
    return archive;
  }

  /**
   * The lateness of this server's deliveries, for the dashboard's series.
   *
   * @return the samples
   */
  public LatenessSamples lateness() {
    return lateness;
  }

  /**
   * The Prometheus text of every meter, with per-queue meters registered for new queues.
   *
   * @return the text {@code /metrics} answers
   */
  public String scrape() {
    hourglassMetrics.registerQueues();
    archive.registerQueues();
    return registry.scrape();
  }
}
