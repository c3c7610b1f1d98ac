package dev.hourglass.server.http;

import dev.hourglass.Hourglass;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code /health/ready}: asks Redis one read and answers within {@link #BOUND} whatever Redis does.
 * A probe that finds a ping still in flight waits on that one instead of starting another, so a
 * hung Redis holds at most one thread (for the client's command timeout), however often the
 * orchestrator probes.
 */
final class ReadinessProbe implements AutoCloseable {
  /** How long a probe waits for Redis: below a typical probe timeout of 1 s. */
  static final Duration BOUND = Duration.ofMillis(800);

  private final Hourglass hourglass;
  private final ExecutorService pinger =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "hourglass-ready-probe");
            t.setDaemon(true);
            return t;
          });
  private CompletableFuture<Void> inFlight = CompletableFuture.completedFuture(null);

  ReadinessProbe(Hourglass hourglass) {
    this.hourglass = hourglass;
  }

  /** Returns when Redis answered; throws 503 {@code redis_unavailable} otherwise. */
  void check() throws InterruptedException {
    CompletableFuture<Void> ping = ping();
    try {
      ping.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new ApiException(
          503,
          "redis_unavailable",
          "Redis did not answer within " + BOUND.toMillis() + " ms; not ready");
    } catch (ExecutionException e) {
      throw ErrorMapper.toApi(e.getCause());
    }
  }

  private synchronized CompletableFuture<Void> ping() {
    if (inFlight.isDone()) {
      inFlight = CompletableFuture.runAsync(() -> hourglass.queueExists("health-probe"), pinger);
    }
    return inFlight;
  }

  @Override
  public void close() {
    pinger.shutdownNow();
  }
}
