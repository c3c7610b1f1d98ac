package dev.hourglass;

import java.util.List;

/**
 * The entry point: a connected Hourglass client. Build one with {@link #builder()}, keep it for the
 * life of the application, and close it at the end. Thread-safe.
 *
 * <pre>{@code
 * try (Hourglass hourglass = Hourglass.builder().redisUri("redis://localhost:6379").build()) {
 *   Queue orders = hourglass.queue("orders");
 *   orders.enqueue(JobSpec.of("close order 42", Duration.ofMinutes(30)));
 *   hourglass.worker("orders", job -> System.out.println(job.payloadAsString()));
 * }
 * }</pre>
 */
public interface Hourglass extends AutoCloseable {

  static HourglassBuilder builder() {
    return new HourglassBuilder();
  }

  /**
   * A handle on a queue. The queue is created in Redis, with the client's default settings, on
   * first use if it does not exist.
   *
   * @throws InvalidArgumentException when the name is not 1 to 100 of {@code A-Z a-z 0-9 . _ -}
   */
  Queue queue(String name);

  /**
   * Creates a queue with these settings, or updates an existing queue's defaults and retention.
   * Partitions and pools are fixed at creation; a different value for an existing queue is refused.
   *
   * @throws InvalidArgumentException when the name is invalid or partitions/pools differ from the
   *     stored ones
   */
  Queue configureQueue(String name, QueueSettings settings);

  /**
   * Whether a queue of this name exists (was created by an enqueue, a handle's first use or {@link
   * #configureQueue}). Reads only; creates nothing.
   *
   * @throws InvalidArgumentException when the name is invalid
   */
  boolean queueExists(String name);

  /** The settings a queue gets when its first use creates it (see the builder). */
  QueueSettings defaultQueueSettings();

  /** Names of every queue under this client's key prefix. */
  List<String> queueNames();

  /**
   * A counter that every change to any queue's settings raises (one read). A process that keeps
   * copies of many queues' settings reads this instead of every queue's, and reads those again only
   * when it moved.
   */
  long settingsVersion();

  /** Starts a worker on a queue with default options. */
  default Worker worker(String queue, JobHandler handler) {
    return worker(queue, handler, WorkerOptions.defaults());
  }

  /** Starts a worker on a queue. Close it (or this client) to stop it. */
  Worker worker(String queue, JobHandler handler, WorkerOptions options);

  /**
   * Closes every worker (each with its own shutdown timeout), stops promoters, and closes
   * connections.
   */
  @Override
  void close();
}
