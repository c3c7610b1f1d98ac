package dev.hourglass.internal;

import dev.hourglass.InvalidArgumentException;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;

/**
 * Owns the Lettuce client and the shared connection. Lettuce's auto-reconnect is off on purpose:
 * with it, commands that were in flight when a connection dropped are sent again after
 * reconnecting, which would run an enqueue script twice. Here an in-flight command fails with an
 * outcome-unknown error instead, and the next call opens a new connection. Thread-safe.
 */
public final class RedisConnector implements AutoCloseable {
  private final RedisClient client;
  private final RedisURI uri;
  private final Object lock = new Object();
  private volatile StatefulRedisConnection<byte[], byte[]> shared;
  private volatile boolean closed;

  public RedisConnector(String redisUri, Duration commandTimeout, Duration connectTimeout) {
    try {
      this.uri = RedisURI.create(redisUri);
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException(
          "redisUri", "'" + redisUri + "' is not a Redis URI: " + e.getMessage());
    }
    uri.setTimeout(commandTimeout);
    this.client = RedisClient.create();
    client.setOptions(
        ClientOptions.builder()
            .autoReconnect(false)
            .pingBeforeActivateConnection(true)
            .socketOptions(SocketOptions.builder().connectTimeout(connectTimeout).build())
            .timeoutOptions(TimeoutOptions.enabled())
            .build());
  }

  /** Async commands on the shared connection, reconnecting first if the last one was lost. */
  public RedisAsyncCommands<byte[], byte[]> async() {
    return connection().async();
  }

  /** The shared connection, opened (again) when needed. */
  public StatefulRedisConnection<byte[], byte[]> connection() {
    StatefulRedisConnection<byte[], byte[]> c = shared;
    if (c != null && c.isOpen()) {
      return c;
    }
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("Hourglass client is closed");
      }
      c = shared;
      if (c == null || !c.isOpen()) {
        if (c != null) {
          c.closeAsync();
        }
        c = open(uri.getTimeout());
        shared = c;
      }
      return c;
    }
  }

  /**
   * A new connection the caller owns, e.g. for blocking commands, with its own command timeout
   * (which must exceed any blocking timeout used on it).
   */
  public StatefulRedisConnection<byte[], byte[]> openDedicated(Duration commandTimeout) {
    return open(commandTimeout);
  }

  /** A new pub/sub connection the caller owns. */
  public StatefulRedisPubSubConnection<String, String> openPubSub() {
    try {
      return client.connectPubSub(StringCodec.UTF8, uri);
    } catch (RuntimeException e) {
      throw Failures.translate(e);
    }
  }

  public Duration commandTimeout() {
    return uri.getTimeout();
  }

  private StatefulRedisConnection<byte[], byte[]> open(Duration timeout) {
    try {
      StatefulRedisConnection<byte[], byte[]> c = client.connect(ByteArrayCodec.INSTANCE, uri);
      c.setTimeout(timeout);
      return c;
    } catch (RuntimeException e) {
      throw Failures.translate(e);
    }
  }

  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
      if (shared != null) {
        shared.close();
      }
    }
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
  }
}
