package dev.hourglass.server.http;

import dev.hourglass.Hourglass;
import dev.hourglass.Queue;
import dev.hourglass.server.json.ApiException;
import dev.hourglass.server.json.QueueNames;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * Finds queues for requests without creating them by accident: reads and consumer settlements use
 * {@link #existing}, which answers 404 for an unknown queue and writes nothing; only enqueue, claim
 * and settings updates go through {@link #forWrite}, which creates the queue on first use. A queue
 * seen to exist is trusted for {@value #TRUST_MS} ms before Redis is asked again, so that a queue
 * deleted through another server stops being found here within that time.
 */
public final class QueueDirectory {
  static final long TRUST_MS = 2_000;
  private static final long TRUST_NANOS = TimeUnit.MILLISECONDS.toNanos(TRUST_MS);

  private final Hourglass hourglass;

  /** A queue known to exist: its handle, and when it was last seen to ({@link System#nanoTime}). */
  private record Known(Queue<byte[]> queue, long seenNanos) {}

  /** The queues known to exist, with their handles: found again without a name check. */
  private final ConcurrentMap<String, Known> known = new ConcurrentHashMap<>();

  /**
   * A directory of the client's queues.
   *
   * @param hourglass the client whose queues it finds
   */
  public QueueDirectory(Hourglass hourglass) {
    this.hourglass = hourglass;
  }

  /**
   * Whether a queue exists (asking Redis when not seen within the trust time).
   *
   * @param name the queue's name
   * @return true when it exists
   * @throws ApiException 400 when the name is not a valid queue name
   */
  public boolean exists(String name) {
    return find(name) != null;
  }

  /** The queue's handle when it exists (asking Redis when not seen within the trust time). */
  private Queue<byte[]> find(String name) {
    Known k = known.get(QueueNames.check(name));
    long now = System.nanoTime();
    if (k != null && now - k.seenNanos() < TRUST_NANOS) {
      return k.queue();
    }
    if (!hourglass.queueExists(name)) {
      known.remove(name);
      return null;
    }
    Queue<byte[]> q = k != null ? k.queue() : hourglass.queue(name);
    known.put(name, new Known(q, now));
    return q;
  }

  /**
   * The handle of a queue that must exist, for reads and for changes to existing jobs.
   *
   * @param name the queue's name
   * @return its handle
   * @throws ApiException 404 {@code queue_not_found}, or 400 when the name is not valid
   */
  public Queue<byte[]> existing(String name) {
    Queue<byte[]> q = find(name);
    if (q == null) {
      throw ApiException.queueNotFound(name);
    }
    return q;
  }

  /**
   * The queue, created with the server's defaults on first use.
   *
   * @param name the queue's name
   * @return its handle
   * @throws ApiException 400 when the name is not a valid queue name
   */
  public Queue<byte[]> forWrite(String name) {
    Known k = known.get(QueueNames.check(name));
    Queue<byte[]> q = k != null ? k.queue() : hourglass.queue(name);
    known.put(name, new Known(q, System.nanoTime()));
    return q;
  }

  /** Forgets a queue this server deleted. */
  void forget(String name) {
    known.remove(name);
  }
}
