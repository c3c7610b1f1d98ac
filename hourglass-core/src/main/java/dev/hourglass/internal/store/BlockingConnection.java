package dev.hourglass.internal.store;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The dedicated connection one thread blocks on (BLPOP on a partition's wake list), which another
 * thread closes to end a block in progress. Opened on first use and again after a failure; each
 * connection is closed exactly once, since Lettuce warns "Connection is already closed" on a second
 * close. Used by the wake-up watchers of WakeWatch, one per partition a consumer waits on.
 */
public final class BlockingConnection {
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
   * Blocks until a wake token of the partition arrives (BLPOP), or {@code max} passes: the token,
   * or null. After {@link #close} it fails at once.
   *
   * @throws dev.hourglass.HourglassException when the connection fails or is closed meanwhile
   */
  public byte[] awaitWake(Partition p, Duration max) {
    try {
      KeyValue<byte[], byte[]> token = get().sync().blpop(max.toMillis() / 1000.0, p.wakeKey());
      return token == null ? null : token.getValue();
    } catch (RedisException e) {
      throw redis.failed(e);
    }
  }

  /** Puts back a token this connection took, for another consumer. */
  public void returnWake(Partition p, byte[] token) {
    try {
      get().sync().lpush(p.wakeKey(), token);
    } catch (RedisException e) {
      throw redis.failed(e);
    }
  }

  /**
   * The connection to block on, opened if there is none or it was lost. After {@link #close} the
   * connection returned is closed already, so a command on it fails at once.
   */
  private RedisConnection get() {
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
  public void drop() {
    RedisConnection c = current.getAndSet(null);
    if (c != null) {
      c.closeAsync();
    }
  }

  /** Closes the connection in use, and any that {@link #get} opens from now on. */
  public void close() {
    closed = true;
    drop();
  }
}
