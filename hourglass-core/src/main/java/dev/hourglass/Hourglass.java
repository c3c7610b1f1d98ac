package dev.hourglass;

import dev.hourglass.spi.PayloadCodec;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The entry point: a connected Hourglass client. Build one with {@link #builder()}, keep it for the
 * life of the application, and close it at the end. Thread-safe.
 *
 * <pre>{@code
 * try (Hourglass hourglass = Hourglass.builder().redisUri("redis://localhost:6379").build()) {
 *   Queue<String> orders = hourglass.queue("orders", String.class);
 *   orders.enqueue("close order 42", Duration.ofMinutes(30));
 *   orders.worker(job -> System.out.println(job.payload()));
 * }
 * }</pre>
 */
public interface Hourglass extends AutoCloseable {

  static HourglassBuilder builder() {
    return new HourglassBuilder();
  }

  /**
   * A handle on a queue whose payloads are bytes. The queue is created in Redis, with the client's
   * default settings, on first use if it does not exist.
   *
   * @throws InvalidArgumentException when the name is not 1 to 100 of {@code A-Z a-z 0-9 . _ -}, or
   *     is {@code .} or {@code ..}
   */
  Queue<byte[]> queue(String name);

  /**
   * A handle on a queue whose payloads are of this type: {@code byte[]} and {@code String} (UTF-8)
   * are built in, other types need the builder's {@link HourglassBuilder#codecs codec factory}
   * (e.g. {@code hourglass-jackson}'s for JSON).
   *
   * @throws InvalidArgumentException when the name is invalid or no codec handles the type
   */
  <T> Queue<T> queue(String name, Class<T> type);

  /** A handle on a queue whose payloads this codec encodes and decodes. */
  <T> Queue<T> queue(String name, PayloadCodec<T> codec);

  /**
   * Creates a queue with these settings, or updates an existing queue's defaults and retention.
   * Partitions and pools are fixed at creation; a different value for an existing queue is refused.
   *
   * @throws InvalidArgumentException when the name is invalid or partitions/pools differ from the
   *     stored ones
   */
  Queue<byte[]> configureQueue(String name, QueueSettings settings);

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
   * {@link #queueNames()} without blocking: one read, for instance for a health probe that bounds
   * its own wait. The future fails with {@link RedisUnavailableException} when Redis does not
   * answer.
   */
  CompletableFuture<List<String>> queueNamesAsync();

  /**
   * A counter that every change to any queue's settings raises (one read). A process that keeps
   * copies of many queues' settings reads this instead of every queue's, and reads those again only
   * when it moved.
   */
  long settingsVersion();

  /** The outbox of finished jobs, for an archive ({@link Outbox}). */
  Outbox outbox();

  /** Starts a worker on a queue of bytes with default options ({@link Queue#worker}). */
  default Worker worker(String queue, JobHandler<byte[]> handler) {
    return queue(queue).worker(handler);
  }

  /** Starts a worker on a queue of bytes ({@link Queue#worker}). */
  default Worker worker(String queue, JobHandler<byte[]> handler, WorkerOptions options) {
    return queue(queue).worker(handler, options);
  }

  /**
   * Closes every worker (each with its own shutdown timeout), stops promoters, and closes
   * connections.
   */
  @Override
  void close();
}
