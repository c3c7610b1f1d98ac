package dev.hourglass.server.http;

import dev.hourglass.Hourglass;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Finds queues for requests without creating them by accident: reads and consumer settlements use
 * {@link #existing}, which answers 404 for an unknown queue and writes nothing; only enqueue, claim
 * and settings updates go through {@link #forWrite}, which creates the queue on first use. Queues
 * are never deleted, so a name once seen stays known.
 */
public final class QueueDirectory {
  private static final int MAX_NAME = 100;

  private final Hourglass hourglass;

  /** The queues known to exist, with their handles: found again without a name check. */
  private final ConcurrentMap<String, Queue<byte[]>> known = new ConcurrentHashMap<>();

  public QueueDirectory(Hourglass hourglass) {
    this.hourglass = hourglass;
  }

  /**
   * @throws ApiException 400 {@code invalid_queue_name}
   */
  public static String checkName(String name) {
    if (!isValidName(name)) {
      throw new ApiException(
          400,
          "invalid_queue_name",
          "a queue name is 1 to 100 of A-Z a-z 0-9 . _ -, and not . or ..");
    }
    return name;
  }

  /**
   * 1 to 100 of {@code A-Z a-z 0-9 . _ -}, and not {@code .} or {@code ..}: a job id's characters
   * but {@code :}, checked without a regex as ids are.
   */
  private static boolean isValidName(String name) {
    return JobSpec.isValidId(name)
        && name.length() <= MAX_NAME
        && name.indexOf(':') < 0
        && !name.equals(".")
        && !name.equals("..");
  }

  public boolean exists(String name) {
    if (known.containsKey(checkName(name))) {
      return true;
    }
    boolean exists = hourglass.queueExists(name);
    if (exists) {
      known.computeIfAbsent(name, hourglass::queue);
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
    return known.get(name);
  }

  /** The queue, created with the server's defaults on first use. */
  public Queue<byte[]> forWrite(String name) {
    return known.computeIfAbsent(checkName(name), hourglass::queue);
  }
}
