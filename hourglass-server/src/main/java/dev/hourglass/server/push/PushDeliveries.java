package dev.hourglass.server.push;

import dev.hourglass.Hourglass;
import dev.hourglass.Worker;
import dev.hourglass.WorkerOptions;
import dev.hourglass.forward.Forwarder;
import dev.hourglass.forward.ForwarderOptions;
import dev.hourglass.server.metrics.Metrics;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs push delivery: one {@link Worker} per queue whose delivery is {@code http}, with the queue's
 * concurrency, whose handler POSTs each job ({@link HttpPusher}); one {@link Forwarder} per queue
 * whose delivery is {@code amqp} or {@code kafka}, with its own thread and broker connection. A
 * worker's threads only ever wait on its own endpoint, so a slow or dead endpoint holds back its
 * own queue and no other. Leases cover the POST timeout plus {@link #LEASE_MARGIN}, so a job in
 * flight when this server dies comes back to another server (or this one after a restart) when its
 * lease runs out.
 *
 * <p>Every {@value #RESCAN_SECONDS} s the settings version is read, and when some queue's settings
 * changed, every queue's delivery settings are read again, so a change made through another server
 * instance applies here too.
 */
public final class PushDeliveries implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PushDeliveries.class);
  static final Duration LEASE_MARGIN = Duration.ofSeconds(10);
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  private static final long RESCAN_SECONDS = 5;

  private final Hourglass hourglass;
  private final Metrics metrics;
  private final Duration shutdownTimeout;
  private final HttpClient http =
      HttpClient.newBuilder()
          .connectTimeout(CONNECT_TIMEOUT)
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();
  private final Map<String, Running> running = new HashMap<>();
  private final ScheduledExecutorService rescan =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "hourglass-push-rescan");
            t.setDaemon(true);
            return t;
          });
  private boolean closed;
  private long scannedVersion = -1; // the settings version the last full scan read; rescan thread

  /** A queue's pusher or forwarder. */
  private record Running(DeliveryConfig config, AutoCloseable runner) {
    void stop() {
      try {
        runner.close();
      } catch (Exception e) { // Worker and Forwarder close without checked exceptions
        throw new IllegalStateException(e);
      }
    }
  }

  /**
   * The server's pushers and forwarders, none running until {@link #start()}.
   *
   * @param hourglass the client whose queues they deliver
   * @param metrics counts and times each delivery
   * @param shutdownTimeout how long deliveries in flight may take to finish on close
   */
  public PushDeliveries(Hourglass hourglass, Metrics metrics, Duration shutdownTimeout) {
    this.hourglass = hourglass;
    this.metrics = metrics;
    this.shutdownTimeout = shutdownTimeout;
  }

  /** Reads every queue's delivery now and then every few seconds. */
  public void start() {
    rescan.scheduleWithFixedDelay(this::rescanSafely, 0, RESCAN_SECONDS, TimeUnit.SECONDS);
  }

  private void rescanSafely() {
    try {
      // One read when nothing changed; every queue's settings only when some changed.
      long version = hourglass.settingsVersion();
      if (version == scannedVersion) {
        return;
      }
      List<String> names = hourglass.queueNames();
      for (String queue : names) {
        String stored =
            hourglass.queue(queue).settings().attributes().get(DeliveryConfig.ATTRIBUTE);
        apply(queue, DeliveryConfig.fromAttribute(stored));
      }
      // A queue deleted through another server: its pusher would create it again.
      List<String> pushing;
      synchronized (this) {
        pushing = List.copyOf(running.keySet());
      }
      for (String queue : pushing) {
        if (!names.contains(queue)) {
          apply(queue, DeliveryConfig.PULL);
        }
      }
      scannedVersion = version;
    } catch (RuntimeException e) {
      log.warn("cannot read delivery settings: {}", e.getMessage());
    }
  }

  /**
   * Starts, restarts or stops the queue's pusher to match {@code config}.
   *
   * @param queue the queue's name
   * @param config its delivery setting
   */
  public synchronized void apply(String queue, DeliveryConfig config) {
    if (closed) {
      return;
    }
    Running current = running.get(queue);
    if (current != null && current.config().equals(config)) {
      return;
    }
    if (current != null) {
      running.remove(queue);
      current.stop();
      log.info("{} delivery of queue {} stopped", current.config().type(), queue);
    }
    if (config.forward()) {
      ForwarderOptions options =
          ForwarderOptions.builder()
              .concurrency(config.concurrency())
              .shutdownTimeout(shutdownTimeout)
              .onPublished(job -> metrics.delivered(queue, "forward", job.dueAt()))
              .build();
      Forwarder forwarder = Forwarder.start(hourglass.queue(queue), config.target(), options);
      running.put(queue, new Running(config, forwarder));
      log.info(
          "forwarding queue {} to {} (concurrency {})",
          queue,
          config.target(),
          config.concurrency());
    }
    if (config.push()) {
      WorkerOptions options =
          WorkerOptions.builder()
              .concurrency(config.concurrency())
              // A job leased here is one POST in flight: the queue's concurrency is what an
              // endpoint is promised, and jobs a hanging endpoint cannot take stay free for
              // another server's pusher.
              .prefetch(0)
              .maxClaim(config.concurrency())
              .visibility(Duration.ofMillis(config.timeoutMs()).plus(LEASE_MARGIN))
              .shutdownTimeout(shutdownTimeout)
              .build();
      Worker worker =
          hourglass.worker(queue, new HttpPusher(http, config, metrics, queue), options);
      running.put(queue, new Running(config, worker));
      log.info(
          "push delivery of queue {} to {} (concurrency {}, timeout {} ms)",
          queue,
          config.url(),
          config.concurrency(),
          config.timeoutMs());
    }
  }

  /** Stops claiming and lets POSTs in flight finish and settle (each worker's shutdown timeout). */
  @Override
  public void close() {
    rescan.shutdownNow();
    Map<String, Running> stopping;
    synchronized (this) {
      closed = true;
      stopping = new HashMap<>(running);
      running.clear();
    }
    stopping.values().parallelStream().forEach(Running::stop);
  }
}
