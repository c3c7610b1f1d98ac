package dev.hourglass.server.http;

import dev.hourglass.Hourglass;
import dev.hourglass.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Finds queues for requests without creating them by accident: reads and consumer settlements use
 * {@link #existing}, which answers 404 for an unknown queue and writes nothing; only enqueue, claim
 * and settings updates go through {@link #forWrite}, which creates the queue on first use. Queues
 * are never deleted, so a name once seen stays known.
 */
public final class QueueDirectory {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");

  private final Hourglass hourglass;
  private final Set<String> known = ConcurrentHashMap.newKeySet();

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
    if (known.contains(checkName(name))) {
      return true;
    }
    boolean exists = hourglass.queueExists(name);
    if (exists) {
      known.add(name);
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
    known.add(name);
    return q;
  }
}
