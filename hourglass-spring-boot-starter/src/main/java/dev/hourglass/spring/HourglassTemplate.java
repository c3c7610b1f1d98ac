package dev.hourglass.spring;

import dev.hourglass.Hourglass;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobStateException;
import dev.hourglass.Queue;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Enqueues jobs from a Spring application. A payload is encoded by the client's codecs: {@code
 * byte[]} and {@code String} as they are, any other object as JSON through the application's mapper
 * ({@link HourglassPayloadMapper}). Thread-safe; one per application, made by the starter.
 *
 * <pre>{@code
 * String id = template.enqueue("orders", new OrderPlaced(42), Duration.ofMinutes(30));
 * template.job("orders", order).id("close-42").delay(Duration.ofMinutes(30)).maxAttempts(3).enqueue();
 * }</pre>
 */
public class HourglassTemplate {
  private final Hourglass hourglass;
  private final ConcurrentMap<QueueKey, Queue<Object>> queues = new ConcurrentHashMap<>();

  /**
   * A template over this client; the starter makes one.
   *
   * @param hourglass the client that enqueues
   * @throws NullPointerException when it is null
   */
  public HourglassTemplate(Hourglass hourglass) {
    this.hourglass = Objects.requireNonNull(hourglass, "hourglass");
  }

  /**
   * Enqueues {@code payload} to run after {@code delay}.
   *
   * @param queue the queue name
   * @param payload the payload, encoded by the client's codecs
   * @param delay from the Redis server's now, zero or positive
   * @return the new job's id
   * @throws InvalidArgumentException for a bad queue name, delay or payload
   * @throws dev.hourglass.RedisUnavailableException when Redis cannot be reached
   */
  public String enqueue(String queue, Object payload, Duration delay) {
    return job(queue, payload).delay(delay).enqueue().id();
  }

  /**
   * Enqueues {@code payload} to run at {@code runAt} (by the Redis server's clock).
   *
   * @param queue the queue name
   * @param payload the payload, encoded by the client's codecs
   * @param runAt the due time; the past means now
   * @return the new job's id
   * @throws InvalidArgumentException for a bad queue name, due time or payload
   * @throws dev.hourglass.RedisUnavailableException when Redis cannot be reached
   */
  public String enqueueAt(String queue, Object payload, Instant runAt) {
    return job(queue, payload).runAt(runAt).enqueue().id();
  }

  /**
   * Starts a job with every option of a {@link dev.hourglass.JobSpec}: {@code
   * template.job("orders", payload).id("order-42").delay(d).maxAttempts(5).enqueue()}. Sends
   * nothing until {@link JobRequest#enqueue()}.
   *
   * @param queue the queue name
   * @param payload the payload, encoded now by the client's codecs
   * @return the request, to set options on and enqueue once
   * @throws InvalidArgumentException for a bad queue name, a null payload, or one no codec encodes
   */
  public JobRequest job(String queue, Object payload) {
    if (payload == null) {
      throw new InvalidArgumentException("payload", "is required");
    }
    return new JobRequest(queueFor(queue, payload.getClass()), payload);
  }

  /**
   * Cancels a job that is waiting (delayed or ready) or dead; a job a consumer is running right now
   * is left to finish.
   *
   * @param queue the queue name
   * @param id the job id
   * @return true when the job was removed; false when no such job exists (unknown, or already done)
   *     or a consumer is running it
   * @throws InvalidArgumentException for a bad queue name or id
   * @throws dev.hourglass.RedisUnavailableException when Redis cannot be reached
   */
  public boolean cancel(String queue, String id) {
    try {
      return hourglass.queue(queue).cancel(id);
    } catch (JobStateException running) {
      return false;
    }
  }

  /**
   * The client, for everything else (stats, dead letters, rescheduling, ...).
   *
   * @return the client this template enqueues with
   */
  public Hourglass hourglass() {
    return hourglass;
  }

  @SuppressWarnings("unchecked")
  private Queue<Object> queueFor(String queue, Class<?> type) {
    return queues.computeIfAbsent(
        new QueueKey(queue, type), k -> hourglass.queue(k.name(), (Class<Object>) k.type()));
  }

  private record QueueKey(String name, Class<?> type) {}
}
