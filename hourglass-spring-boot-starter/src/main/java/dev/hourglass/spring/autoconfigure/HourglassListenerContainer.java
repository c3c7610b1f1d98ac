package dev.hourglass.spring.autoconfigure;

import dev.hourglass.Hourglass;
import dev.hourglass.Worker;
import dev.hourglass.WorkerOptions;
import dev.hourglass.spring.HourglassPayloadMapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;

/**
 * Runs a {@link Worker} per listener method: started once the context is refreshed, stopped first
 * when it closes. Stopping closes every worker at once, each waiting up to the shutdown timeout for
 * its running handlers and handing its jobs not started back to Redis; nothing is acked unrun. The
 * client is closed only after that: this bean depends on it, so Spring destroys this bean first,
 * and {@link #destroy()} waits for the workers.
 */
final class HourglassListenerContainer implements SmartLifecycle, DisposableBean {
  private static final Logger LOG = LoggerFactory.getLogger(HourglassListenerContainer.class);

  /** Settings every listener shares. */
  record Settings(
      int defaultConcurrency, int prefetch, Duration shutdownTimeout, boolean autoStartup) {}

  private final Hourglass hourglass;
  private final HourglassPayloadMapper mapper;
  private final HourglassListenerBeanPostProcessor listeners;
  private final DeliveryObserver observer;
  private final Settings settings;
  private final List<Worker> workers = new ArrayList<>(); // guarded by this
  private boolean running; // guarded by this
  private Thread stopping; // guarded by this; the last stop, which waits for the one before

  HourglassListenerContainer(
      Hourglass hourglass,
      HourglassPayloadMapper mapper,
      HourglassListenerBeanPostProcessor listeners,
      DeliveryObserver observer,
      Settings settings) {
    this.hourglass = hourglass;
    this.mapper = mapper;
    this.listeners = listeners;
    this.observer = observer;
    this.settings = settings;
  }

  @Override
  public synchronized void start() {
    if (running) {
      return;
    }
    awaitStopped();
    running = true;
    try {
      // Schedules first (an idempotent put by every instance), then their consumers.
      for (ScheduleDeclaration schedule : listeners.schedules()) {
        schedule.put(hourglass);
      }
      for (ListenerMethod listener : listeners.takeListeners()) {
        workers.add(listener.start(hourglass, mapper, options(listener), observer));
        LOG.debug("Listening to queue '{}' with {}", listener.queue(), listener.description());
      }
    } catch (RuntimeException e) {
      closeAll(new ArrayList<>(workers));
      workers.clear();
      running = false;
      throw e;
    }
  }

  private WorkerOptions options(ListenerMethod listener) {
    int concurrency =
        listener.concurrency() > 0 ? listener.concurrency() : settings.defaultConcurrency();
    return WorkerOptions.builder()
        .concurrency(concurrency)
        .prefetch(settings.prefetch())
        .shutdownTimeout(settings.shutdownTimeout())
        .build();
  }

  @Override
  public void stop() {
    stop(() -> {});
    awaitStopped();
  }

  @Override
  public synchronized void stop(Runnable callback) {
    running = false;
    List<Worker> closing = new ArrayList<>(workers);
    workers.clear();
    Thread previous = stopping;
    stopping =
        new Thread(
            () -> {
              try {
                if (previous != null) {
                  ParallelStop.joinUninterruptibly(previous);
                }
                closeAll(closing);
              } finally {
                callback.run();
              }
            },
            "hourglass-listeners-stop");
    stopping.start();
  }

  /** Closes the workers in parallel, each waiting up to the shutdown timeout. */
  private void closeAll(List<Worker> closing) {
    ParallelStop.all(
        closing.stream()
            .map(
                w ->
                    new ParallelStop.Stop(
                        "hourglass-listener-stop-" + w.queue(),
                        () -> w.close(settings.shutdownTimeout())))
            .toList());
  }

  private void awaitStopped() {
    Thread t;
    synchronized (this) {
      t = stopping;
    }
    if (t != null) {
      ParallelStop.joinUninterruptibly(t);
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return running;
  }

  @Override
  public boolean isAutoStartup() {
    return settings.autoStartup();
  }

  @Override
  public int getPhase() {
    return DEFAULT_PHASE;
  }

  /** Waits for a stop in progress, so that the client closes after the workers. */
  @Override
  public void destroy() {
    stop(() -> {});
    awaitStopped();
  }
}
