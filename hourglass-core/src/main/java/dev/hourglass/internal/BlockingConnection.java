package dev.hourglass.internal;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The dedicated connection one thread blocks on (BLPOP on a partition's wake list), which another
 * thread closes to end a block in progress. Opened on first use and again after a failure; each
 * connection is closed exactly once, since Lettuce warns "Connection is already closed" on a second
 * close. Used by the claim loops and the long-poll watchers.
 */
final class BlockingConnection {
  private final RedisConnector redis;
  private final Duration commandTimeout;
  // Taken (set to null) by whoever closes it.
  private final AtomicReference<RedisConnection> current = new AtomicReference<>();
  private volatile boolean closed;

  /** {@code commandTimeout} must cover the longest block plus the usual command timeout. */
  BlockingConnection(RedisConnector redis, Duration commandTimeout) {
    this.redis = redis;
    this.commandTimeout = commandTimeout;
  }

  /**
   * The connection to block on, opened if there is none or it was lost. After {@link #close} the
   * connection returned is closed already, so a command on it fails at once.
   */
  RedisConnection get() {
    RedisConnection c = current.get();
    if (c == null || !c.isOpen()) {
      c = redis.openDedicated(commandTimeout);
      current.set(c);
      if (closed) {
        drop(); // close() ran while this one was opening: it saw no connection to close
      }
    }
    return c;
  }

  /** Closes the connection in use (ending a block on it); the next {@link #get} opens another. */
  void drop() {
    RedisConnection c = current.getAndSet(null);
    if (c != null) {
      c.closeAsync();
    }
  }

  /** Closes the connection in use, and any that {@link #get} opens from now on. */
  void close() {
    closed = true;
    drop();
  }
}
