package dev.hourglass.spring.autoconfigure;

import dev.hourglass.Hourglass;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.beans.factory.DisposableBean;

/**
 * Asks Redis for the list of queues and waits at most the health timeout for the answer, however
 * long the client's command timeout is: a health probe must answer quickly, and "Redis did not
 * answer within 2 s" is DOWN. The question runs on a thread of its own; while it is unanswered,
 * later checks wait for the same question instead of piling up new ones. Shared by the Boot 3 and
 * Boot 4 health indicators.
 */
final class HourglassHealthCheck implements DisposableBean {

  /** The outcome: up or down, with details for the health endpoint. */
  record Result(boolean up, Map<String, Object> details) {}

  private final Hourglass hourglass;
  private final Duration timeout;
  private final ExecutorService executor =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "hourglass-health");
            t.setDaemon(true);
            return t;
          });
  private CompletableFuture<Integer> pending; // guarded by this

  HourglassHealthCheck(Hourglass hourglass, Duration timeout) {
    this.hourglass = hourglass;
    this.timeout = timeout;
  }

  Result check() {
    CompletableFuture<Integer> question;
    synchronized (this) {
      if (pending == null || pending.isDone()) {
        pending = CompletableFuture.supplyAsync(() -> hourglass.queueNames().size(), executor);
      }
      question = pending;
    }
    try {
      int queues = question.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
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

  @Override
  public void destroy() {
    executor.shutdownNow();
  }
}
