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

  /**
   * Starts configuring a client.
   *
   * @return a builder with every default set
   */
  static HourglassBuilder builder() {
    return new HourglassBuilder();
  }

  /**
   * A handle on a queue whose payloads are bytes. The queue is created in Redis, with the client's
   * default settings, on first use if it does not exist. Getting the handle sends nothing.
   *
   * @param name 1 to 100 of {@code A-Z a-z 0-9 . _ -}
   * @return the handle; every call for the same name returns the same one
   * @throws InvalidArgumentException when the name is not 1 to 100 of {@code A-Z a-z 0-9 . _ -}, or
   *     is {@code .} or {@code ..}
   * @throws HourglassException when the client is closed
   */
  Queue<byte[]> queue(String name);

  /**
   * A handle on a queue whose payloads are of this type: {@code byte[]} and {@code String} (UTF-8)
   * are built in, other types need the builder's {@link HourglassBuilder#codecs codec factory}
   * (e.g. {@code hourglass-jackson}'s for JSON). Getting the handle sends nothing.
   *
   * @param name 1 to 100 of {@code A-Z a-z 0-9 . _ -}
   * @param type the payload type
   * @param <T> the payload type
   * @return a handle reading and writing payloads with the type's codec
   * @throws InvalidArgumentException when the name is invalid, the type null, or no codec handles
   *     the type
   * @throws HourglassException when the client is closed
   */
  <T> Queue<T> queue(String name, Class<T> type);

  /**
   * A handle on a queue whose payloads this codec encodes and decodes. Getting the handle sends
   * nothing.
   *
   * @param name 1 to 100 of {@code A-Z a-z 0-9 . _ -}
   * @param codec the payload codec
   * @param <T> the payload type
   * @return a handle reading and writing payloads with this codec
   * @throws InvalidArgumentException when the name is invalid or the codec null
   * @throws HourglassException when the client is closed
   */
  <T> Queue<T> queue(String name, PayloadCodec<T> codec);

  /**
   * Creates a queue with these settings, or updates an existing queue's defaults, retention and
   * flow-control limits. Partitions and pools are fixed at creation; a different value for an
   * existing queue is refused. Other clients see the change within 30 s, this one at once; the
   * limits ({@link QueueSettings#limits()}) bind every client's claims once this call returns.
   *
   * @param name 1 to 100 of {@code A-Z a-z 0-9 . _ -}
   * @param settings the queue's settings
   * @return a handle on the queue, its payloads bytes
   * @throws InvalidArgumentException when the name is invalid, the settings null, or
   *     partitions/pools differ from the stored ones
   * @throws RedisUnavailableException when Redis cannot take the call
   * @throws HourglassException when the client is closed
   */
  Queue<byte[]> configureQueue(String name, QueueSettings settings);

  /**
   * Whether a queue of this name exists (was created by an enqueue, a handle's first use or {@link
   * #configureQueue}). Reads only; creates nothing.
   *
   * @param name 1 to 100 of {@code A-Z a-z 0-9 . _ -}
   * @return true when the registry under this client's prefix holds the queue
   * @throws InvalidArgumentException when the name is invalid
   * @throws RedisUnavailableException when Redis cannot take the call
   * @throws HourglassException when the client is closed
   */
  boolean queueExists(String name);

  /**
   * The settings a queue gets when its first use creates it (see the builder). Sends nothing.
   *
   * @return the builder's {@link HourglassBuilder#defaultQueueSettings}
   */
  QueueSettings defaultQueueSettings();

  /**
   * Names of every queue under this client's key prefix.
   *
   * @return the names, in no particular order
   * @throws RedisUnavailableException when Redis cannot take the call
   * @throws HourglassException when the client is closed
   */
  List<String> queueNames();

  /**
   * {@link #queueNames()} without blocking: one read, for instance for a health probe that bounds
   * its own wait.
   *
   * @return a future of the names; it fails with {@link RedisUnavailableException} when Redis does
   *     not answer
   * @throws HourglassException at once, when the client is closed
   */
  CompletableFuture<List<String>> queueNamesAsync();

  /**
   * A counter that every change to any queue's settings raises (one read). A process that keeps
   * copies of many queues' settings reads this instead of every queue's, and reads those again only
   * when it moved.
   *
   * @return the counter, 0 before any settings were written
   * @throws RedisUnavailableException when Redis cannot take the call
   * @throws HourglassException when the client is closed
   */
  long settingsVersion();

  /**
   * The outbox of finished jobs, for an archive ({@link Outbox}). Sends nothing.
   *
   * @return this client's outbox
   * @throws HourglassException when the client is closed
   */
  Outbox outbox();

  /**
   * Starts a worker on a queue of bytes with default options ({@link Queue#worker}).
   *
   * @param queue the queue name
   * @param handler called for each delivered job, on the worker's threads
   * @return the running worker; close it (or the client) to stop it
   * @throws InvalidArgumentException when the name is invalid or the handler null
   * @throws HourglassException when the client is closed
   */
  default Worker worker(String queue, JobHandler<byte[]> handler) {
    return queue(queue).worker(handler);
  }

  /**
   * Starts a worker on a queue of bytes ({@link Queue#worker}).
   *
   * @param queue the queue name
   * @param handler called for each delivered job, on the worker's threads
   * @param options concurrency, prefetch, lease extension and shutdown
   * @return the running worker; close it (or the client) to stop it
   * @throws InvalidArgumentException when the name is invalid, or the handler or the options null
   * @throws HourglassException when the client is closed
   */
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
