package dev.hourglass.spring.autoconfigure;

import dev.hourglass.Hourglass;
import dev.hourglass.forward.Forwarder;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;

/**
 * Runs a {@link Forwarder} per queue that {@code hourglass.queues.<name>.forward} configures:
 * started with the context, before the listeners; stopped after them, every forwarder at once, each
 * waiting up to the shutdown timeout for the broker's confirms of its publishes in flight. The
 * client closes only after that: this bean depends on it, so Spring destroys this bean first.
 */
final class HourglassForwarders implements SmartLifecycle, DisposableBean {
  private static final Logger LOG = LoggerFactory.getLogger(HourglassForwarders.class);

  private final Hourglass hourglass;
  private final List<ForwardPlans.Plan> plans;
  private final List<Forwarder> running = new ArrayList<>(); // guarded by this

  HourglassForwarders(Hourglass hourglass, List<ForwardPlans.Plan> plans) {
    this.hourglass = hourglass;
    this.plans = List.copyOf(plans);
  }

  @Override
  public synchronized void start() {
    if (!running.isEmpty()) {
      return;
    }
    for (ForwardPlans.Plan plan : plans) {
      running.add(Forwarder.start(hourglass.queue(plan.queue()), plan.target(), plan.options()));
      LOG.info(
          "Forwarding queue {} to {} (concurrency {})",
          plan.queue(),
          plan.target(),
          plan.options().concurrency());
    }
  }

  @Override
  public void stop() {
    List<Forwarder> closing;
    synchronized (this) {
      closing = new ArrayList<>(running);
      running.clear();
    }
    ParallelStop.all(
        closing.stream()
            .map(f -> new ParallelStop.Stop("hourglass-forwarder-stop-" + f.queue(), f::close))
            .toList());
  }

  @Override
  public synchronized boolean isRunning() {
    return !running.isEmpty();
  }

  /** After the listeners (the default phase), which stop first. */
  @Override
  public int getPhase() {
    return DEFAULT_PHASE - 1;
  }

  /** Stops the forwarders if the context closes without stopping them. */
  @Override
  public void destroy() {
    stop();
  }
}
