package dev.hourglass.spring.autoconfigure;

import dev.hourglass.Hourglass;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asks Redis for the list of queues and waits at most the health timeout for the answer, however
 * long the client's command timeout is: a health probe must answer quickly, and "Redis did not
 * answer within 2 s" is DOWN. The question ({@link Hourglass#queueNamesAsync()}) holds no thread
 * while it waits. Shared by the Boot 3 and Boot 4 health indicators.
 */
final class HourglassHealthCheck {

  /** The outcome: up or down, with details for the health endpoint. */
  record Result(boolean up, Map<String, Object> details) {}

  private final Hourglass hourglass;
  private final Duration timeout;

  HourglassHealthCheck(Hourglass hourglass, Duration timeout) {
    this.hourglass = hourglass;
    this.timeout = timeout;
  }

  Result check() {
    try {
      int queues =
          hourglass.queueNamesAsync().get(timeout.toMillis(), TimeUnit.MILLISECONDS).size();
      return new Result(true, Map.of("queues", queues));
    } catch (TimeoutException e) {
      return new Result(false, Map.of("error", "Redis did not answer within " + timeout));
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      return new Result(
          false, Map.of("error", cause.getClass().getName() + ": " + cause.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(false, Map.of("error", "interrupted"));
    }
  }
}
