package dev.hourglass.spring.autoconfigure;

import dev.hourglass.Hourglass;
import dev.hourglass.micrometer.HourglassMetrics;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Keeps a set of meters for every queue under the prefix: binds the metrics to the client and
 * registers the queues found at start, then looks for new queues every refresh interval (the loop
 * sleeps for that interval; nothing else wakes it), for {@link HourglassMetrics} and for every
 * {@link NewQueues} (the archive's outbox meters). Starts before the listeners and stops after
 * them.
 */
final class QueueMeters implements SmartLifecycle {
  private static final Logger LOG = LoggerFactory.getLogger(QueueMeters.class);

  private final HourglassMetrics metrics;
  private final Hourglass hourglass;
  private final Duration refresh;
  private final List<NewQueues> others;
  private ScheduledExecutorService scheduler; // guarded by this
  private boolean bound; // guarded by this

  /** Other meters that register new queues' meters when asked. */
  @FunctionalInterface
  interface NewQueues {
    void register();
  }

  QueueMeters(
      HourglassMetrics metrics, Hourglass hourglass, Duration refresh, List<NewQueues> others) {
    this.metrics = metrics;
    this.hourglass = hourglass;
    this.refresh = refresh;
    this.others = List.copyOf(others);
  }

  @Override
  public synchronized void start() {
    if (scheduler != null) {
      return;
    }
    if (!bound) {
      metrics.bind(hourglass);
      bound = true;
    }
    scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "hourglass-queue-meters");
              t.setDaemon(true);
              return t;
            });
    registerQueues();
    scheduler.scheduleWithFixedDelay(
        this::registerQueues, refresh.toMillis(), refresh.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void registerQueues() {
    try {
      metrics.registerQueues();
      others.forEach(NewQueues::register);
    } catch (RuntimeException e) {
      LOG.warn("Could not list Hourglass queues for their meters; trying again in {}", refresh, e);
    }
  }

  @Override
  public synchronized void stop() {
    if (scheduler != null) {
      scheduler.shutdownNow();
      scheduler = null;
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return scheduler != null;
  }

  @Override
  public int getPhase() {
    return DEFAULT_PHASE - 1;
  }
}
