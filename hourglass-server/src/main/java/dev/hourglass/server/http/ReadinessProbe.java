package dev.hourglass.server.http;

import dev.hourglass.Hourglass;
import dev.hourglass.server.json.ApiException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code /health/ready}: asks Redis one read ({@link Hourglass#queueNamesAsync()}) and answers
 * within {@link #BOUND} whatever Redis does. The read holds no thread while it waits, so a hung
 * Redis costs one pending command per probe until the client's command timeout.
 */
final class ReadinessProbe {
  /** How long a probe waits for Redis: below a typical probe timeout of 1 s. */
  static final Duration BOUND = Duration.ofMillis(800);

  private final Hourglass hourglass;

  ReadinessProbe(Hourglass hourglass) {
    this.hourglass = hourglass;
  }

  /** Returns when Redis answered; throws 503 {@code redis_unavailable} otherwise. */
  void check() throws InterruptedException {
    try {
      hourglass.queueNamesAsync().get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new ApiException(
          503,
          "redis_unavailable",
          "Redis did not answer within " + BOUND.toMillis() + " ms; not ready");
    } catch (ExecutionException e) {
      throw ErrorMapper.toApi(e.getCause());
    }
  }
}
