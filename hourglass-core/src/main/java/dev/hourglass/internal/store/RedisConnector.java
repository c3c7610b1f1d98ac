package dev.hourglass.internal.store;

import dev.hourglass.HourglassException;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.RedisUnavailableException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Owns the Lettuce client and its two shared connections (one for the consumers' path, see {@link
 * #deliveryAsync}, one for everything else), to a standalone server ({@code redis://}, {@code
 * rediss://}, ...) or to a Redis Cluster ({@code redis-cluster://host:port[,host:port...]}, seeds
 * from which Lettuce discovers the masters).
 *
 * <p>Lettuce's auto-reconnect is off on purpose: with it, commands that were in flight when a
 * connection dropped are sent again after reconnecting, which would run an enqueue script twice.
 * Here an in-flight command fails with an outcome-unknown error instead, and the next call opens a
 * new connection. A cluster client gets the same option for its connection to every node. Thread-
 * safe.
 */
public final class RedisConnector implements AutoCloseable {
  /** The scheme of a cluster URI: a comma-separated list of seed nodes. */
  public static final String CLUSTER_SCHEME = "redis-cluster://";

  private final Endpoint endpoint;
  private final Duration commandTimeout;
  private final Object lock = new Object();
  private final Shared shared = new Shared();
  private final Shared delivery = new Shared();
  private final Shared replicated = new Shared();
  private volatile boolean closed;

  public RedisConnector(String redisUri, Duration commandTimeout, Duration connectTimeout) {
    this.commandTimeout = commandTimeout;
    SocketOptions socket = SocketOptions.builder().connectTimeout(connectTimeout).build();
    if (isClusterUri(redisUri)) {
      this.endpoint = new Endpoint.Cluster(clusterSeeds(redisUri, commandTimeout), socket);
    } else {
      this.endpoint = new Endpoint.Standalone(standaloneUri(redisUri, commandTimeout), socket);
    }
  }

  /** Tells whether the URI names a Redis Cluster ({@value #CLUSTER_SCHEME}...). */
  public static boolean isClusterUri(String redisUri) {
    return redisUri != null
        && redisUri.regionMatches(true, 0, CLUSTER_SCHEME, 0, CLUSTER_SCHEME.length());
  }

  /**
   * The seed nodes of a {@value #CLUSTER_SCHEME} URI, e.g. {@code
   * redis-cluster://user:secret@10.0.0.1:6379,10.0.0.2:6379}; credentials apply to every node.
   *
   * @throws InvalidArgumentException if a seed is not {@code host[:port]}
   */
  public static List<RedisURI> clusterSeeds(String redisUri, Duration commandTimeout) {
    String rest = redisUri.substring(CLUSTER_SCHEME.length());
    int at = rest.lastIndexOf('@');
    String userInfo = at < 0 ? "" : rest.substring(0, at + 1);
    String hosts = rest.substring(at + 1);
    if (hosts.contains("/") || hosts.contains("?")) {
      throw new InvalidArgumentException(
          "redisUri",
          "'" + redisUri + "': a cluster URI lists host:port seeds only (no database, no options)");
    }
    List<RedisURI> seeds = new ArrayList<>();
    for (String host : hosts.split(",", -1)) {
      if (host.isBlank()) {
        throw new InvalidArgumentException(
            "redisUri", "'" + redisUri + "' has an empty seed; write host:port[,host:port...]");
      }
      seeds.add(standaloneUri("redis://" + userInfo + host.strip(), commandTimeout));
    }
    return seeds;
  }

  private static RedisURI standaloneUri(String redisUri, Duration commandTimeout) {
    RedisURI uri;
    try {
      uri = RedisURI.create(redisUri);
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException(
          "redisUri", "'" + redisUri + "' is not a Redis URI: " + e.getMessage());
    }
    uri.setTimeout(commandTimeout);
    return uri;
  }

  /** Async commands on the shared connection, reconnecting first if the last one was lost. */
  public RedisClusterAsyncCommands<byte[], byte[]> async() {
    return connection().async();
  }

  /** The shared connection, opened (again) when needed. */
  public RedisConnection connection() {
    return shared.get();
  }

  /**
   * Async commands on the delivery connection: like the shared one, but for the consumers' path
   * (promote, claim, ack, ...) alone. Redis answers one connection's commands in order, so on the
   * shared connection a claim would wait behind every enqueue a busy producer of the same client
   * has pipelined; on a connection of its own it waits at most for the script Redis is running.
   */
  public RedisClusterAsyncCommands<byte[], byte[]> deliveryAsync() {
    return deliveryConnection().async();
  }

  /** The delivery connection (see {@link #deliveryAsync}), opened (again) when needed. */
  public RedisConnection deliveryConnection() {
    return delivery.get();
  }

  /**
   * The connection of replica-acknowledged writes (see {@code ReplicaAcks}): each is followed by a
   * {@code WAIT}, which holds the connection until replicas confirm, so these writes have one of
   * their own and neither claims nor plain writes ever queue behind a WAIT. Opened on first use.
   */
  public RedisConnection replicatedConnection() {
    return replicated.get();
  }

  /** Tells whether {@link #replicatedConnection()} is open, i.e. using it does not connect. */
  public boolean isReplicatedOpen() {
    RedisConnection c = replicated.current;
    return c != null && c.isOpen();
  }

  /**
   * Tells whether the shared connection a call would use is open, i.e. whether using it now does
   * not first connect (which blocks).
   */
  public boolean isOpen(boolean deliveryConnection) {
    RedisConnection c = (deliveryConnection ? delivery : shared).current;
    return c != null && c.isOpen();
  }

  /** A connection opened on first use, and again after it was lost; its users share it. */
  private final class Shared {
    private volatile RedisConnection current;

    RedisConnection get() {
      RedisConnection c = current;
      if (c != null && c.isOpen()) {
        return c;
      }
      synchronized (lock) {
        if (closed) {
          throw new IllegalStateException("Hourglass client is closed");
        }
        c = current;
        if (c == null || !c.isOpen()) {
          if (c != null) {
            // Released once: while Redis stays down the open below fails, and the next call must
            // not close this one again (Lettuce warns on a second close).
            current = null;
            c.closeAsync();
          }
          c = open(commandTimeout);
          current = c;
        }
        return c;
      }
    }

    /** Called under the lock, once closed is set. */
    void close() {
      if (current != null) {
        current.close();
      }
    }
  }

  /**
   * Types the failure of a call ({@link Failures#translate}); when it failed for want of Redis, on
   * a cluster the slot map may be stale (a master died and its replica took over, or a slot moved),
   * so it is read again, at most once a second. Nothing to do on a single server.
   */
  public HourglassException failed(Throwable failure) {
    HourglassException e = Failures.translate(failure);
    if (e instanceof RedisUnavailableException) {
      endpoint.unavailable();
    }
    return e;
  }

  /**
   * A new connection the caller owns, e.g. for blocking commands, with its own command timeout
   * (which must exceed any blocking timeout used on it). On a cluster, a blocking command on it
   * holds that connection's link to the node owning the key, so use one per blocking loop.
   */
  public RedisConnection openDedicated(Duration commandTimeout) {
    return open(commandTimeout);
  }

  /**
   * A new pub/sub connection the caller owns. On a cluster it subscribes on one node; classic
   * PUBLISH reaches every node's subscribers.
   */
  public StatefulRedisPubSubConnection<String, String> openPubSub() {
    try {
      return endpoint.openPubSub();
    } catch (RuntimeException e) {
      throw Failures.translate(e);
    }
  }

  /** {@code INFO server} of every server the client talks to, by address (see {@link Endpoint}). */
  public CompletableFuture<Map<String, String>> serverInfo() {
    return endpoint.serverInfo(connection());
  }

  public Duration commandTimeout() {
    return commandTimeout;
  }

  private RedisConnection open(Duration timeout) {
    try {
      RedisConnection c = endpoint.open();
      c.stateful().setTimeout(timeout);
      return c;
    } catch (RuntimeException e) {
      throw Failures.translate(e);
    }
  }

  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
      shared.close();
      delivery.close();
      replicated.close();
    }
    endpoint.client().shutdown(Duration.ZERO, Duration.ofSeconds(2));
  }
}
