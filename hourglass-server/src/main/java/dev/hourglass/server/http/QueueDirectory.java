package dev.hourglass.server.http;

import dev.hourglass.Hourglass;
import dev.hourglass.Queue;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Finds queues for requests without creating them by accident: reads and consumer settlements use
 * {@link #existing}, which answers 404 for an unknown queue and writes nothing; only enqueue, claim
 * and settings updates go through {@link #forWrite}, which creates the queue on first use. A queue
 * seen to exist is trusted for {@value #TRUST_MS} ms before Redis is asked again, so that a queue
 * deleted through another server stops being found here within that time.
 */
public final class QueueDirectory {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");
  static final long TRUST_MS = 2_000;

  private final Hourglass hourglass;

  /** Queue name -> when it was last seen to exist ({@link System#nanoTime()}). */
  private final Map<String, Long> known = new ConcurrentHashMap<>();

  public QueueDirectory(Hourglass hourglass) {
    this.hourglass = hourglass;
  }

  /**
   * @throws ApiException 400 {@code invalid_queue_name}
   */
  public static String checkName(String name) {
    if (name == null || !NAME.matcher(name).matches() || name.equals(".") || name.equals("..")) {
      throw new ApiException(
          400,
          "invalid_queue_name",
          "a queue name is 1 to 100 of A-Z a-z 0-9 . _ -, and not . or ..");
    }
    return name;
  }

  public boolean exists(String name) {
    Long seen = known.get(checkName(name));
    long now = System.nanoTime();
    if (seen != null && now - seen < TimeUnit.MILLISECONDS.toNanos(TRUST_MS)) {
      return true;
    }
    boolean exists = hourglass.queueExists(name);
    if (exists) {
      known.put(name, now);
    } else {
      known.remove(name);
    }
    return exists;
  }

  /**
   * @throws ApiException 404 {@code queue_not_found}
   */
  public Queue<byte[]> existing(String name) {
    if (!exists(name)) {
      throw ApiException.queueNotFound(name);
    }
    return hourglass.queue(name);
  }

  /** The queue, created with the server's defaults on first use. */
  public Queue<byte[]> forWrite(String name) {
    Queue<byte[]> q = hourglass.queue(checkName(name));
    known.put(name, System.nanoTime());
    return q;
  }

  /** Forgets a queue this server deleted. */
  void forget(String name) {
    known.remove(name);
  }
}
