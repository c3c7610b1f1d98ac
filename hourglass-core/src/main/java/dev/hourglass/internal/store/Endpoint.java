package dev.hourglass.internal.store;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where {@link RedisConnector}'s connections go: one server (or Sentinel's master), or a cluster.
 */
interface Endpoint {
  RedisConnection open();

  StatefulRedisPubSubConnection<String, String> openPubSub();

  AbstractRedisClient client();

  /** A call failed for want of Redis (see {@link RedisConnector#failed}). */
  void unavailable();

  /**
   * {@code INFO server} of every server behind this endpoint, by address ({@code host:port}), read
   * on {@code connection}, one of this endpoint's.
   */
  CompletableFuture<Map<String, String>> serverInfo(RedisConnection connection);

  /**
   * The options both kinds of client share: no auto-reconnect (see {@link RedisConnector}), a PING
   * before a connection is used, the connect timeout, and command timeouts.
   */
  private static void connectionPolicy(ClientOptions.Builder options, SocketOptions socket) {
    options
        .autoReconnect(false)
        .pingBeforeActivateConnection(true)
        .socketOptions(socket)
        .timeoutOptions(TimeoutOptions.enabled());
  }

  /**
   * A server named by a {@code redis://} (or {@code rediss://}, {@code redis-sentinel://}) URI.
   * With Sentinel, every new connection asks the sentinels for the master, so the connection opened
   * after a lost one reaches the promoted replica.
   */
  final class Standalone implements Endpoint {
    private final RedisClient client = RedisClient.create();
    private final RedisURI uri;

    Standalone(RedisURI uri, SocketOptions socket) {
      this.uri = uri;
      ClientOptions.Builder options = ClientOptions.builder();
      connectionPolicy(options, socket);
      client.setOptions(options.build());
    }

    @Override
    public RedisConnection open() {
      return RedisConnection.of(client.connect(ByteArrayCodec.INSTANCE, uri));
    }

    @Override
    public StatefulRedisPubSubConnection<String, String> openPubSub() {
      return client.connectPubSub(StringCodec.UTF8, uri);
    }

    @Override
    public AbstractRedisClient client() {
      return client;
    }

    @Override
    public void unavailable() {
      // a lost connection is replaced on the next call (RedisConnector), nothing is cached
    }

    @Override
    public CompletableFuture<Map<String, String>> serverInfo(RedisConnection connection) {
      String address =
          uri.getHost() != null
              ? uri.getHost() + ":" + uri.getPort()
              : "the master '" + uri.getSentinelMasterId() + "' of " + uri.getSentinels();
      return connection
          .async()
          .info("server")
          .toCompletableFuture()
          .thenApply(info -> Map.of(address, info));
    }
  }

  /**
   * A Redis Cluster. Lettuce routes each command by its slot with a slot map it read from the
   * nodes; when a master dies, the replica that takes over its slots answers no redirect (the dead
   * node answers nothing), so the map must be read again: on every failed call (at most once a
   * second, {@link #unavailable()}), on redirects and unknown nodes (Lettuce's adaptive triggers)
   * and every {@value #PERIODIC_REFRESH_SECONDS} s regardless.
   */
  final class Cluster implements Endpoint {
    static final int PERIODIC_REFRESH_SECONDS = 30;
    private static final Logger log = LoggerFactory.getLogger(Cluster.class);
    private static final long REFRESH_AT_MOST_EVERY_NANOS = Duration.ofSeconds(1).toNanos();

    private final RedisClusterClient client;
    private final AtomicLong lastRefresh = new AtomicLong(System.nanoTime());

    Cluster(List<RedisURI> seeds, SocketOptions socket) {
      this.client = RedisClusterClient.create(seeds);
      ClusterClientOptions.Builder options = ClusterClientOptions.builder();
      connectionPolicy(options, socket);
      options.topologyRefreshOptions(
          ClusterTopologyRefreshOptions.builder()
              .enablePeriodicRefresh(Duration.ofSeconds(PERIODIC_REFRESH_SECONDS))
              .enableAllAdaptiveRefreshTriggers()
              .adaptiveRefreshTriggersTimeout(Duration.ofSeconds(1))
              .dynamicRefreshSources(true)
              .closeStaleConnections(true)
              .build());
      client.setOptions(options.build());
    }

    @Override
    public RedisConnection open() {
      return RedisConnection.of(client.connect(ByteArrayCodec.INSTANCE));
    }

    @Override
    public StatefulRedisPubSubConnection<String, String> openPubSub() {
      return client.connectPubSub(StringCodec.UTF8);
    }

    @Override
    public AbstractRedisClient client() {
      return client;
    }

    @Override
    public void unavailable() {
      long last = lastRefresh.get();
      long now = System.nanoTime();
      if (now - last >= REFRESH_AT_MOST_EVERY_NANOS && lastRefresh.compareAndSet(last, now)) {
        // Failures of the refresh itself are the next call's business: it fails and asks again.
        client.refreshPartitionsAsync().exceptionally(t -> null);
      }
    }

    /**
     * {@code INFO server} of every node of the slot map that is not marked failed or without an
     * address. A node that does not answer is left out with a warning, so a cluster with a replica
     * down still starts; only when no node answers does the future fail.
     */
    @Override
    public CompletableFuture<Map<String, String>> serverInfo(RedisConnection connection) {
      @SuppressWarnings("unchecked")
      var cluster = (RedisAdvancedClusterAsyncCommands<byte[], byte[]>) connection.async();
      var each = cluster.nodes(Cluster::reachable).commands().info("server");
      Map<String, CompletableFuture<String>> byAddress = new TreeMap<>();
      each.asMap()
          .forEach(
              (node, info) ->
                  byAddress.put(
                      node.getUri().getHost() + ":" + node.getUri().getPort(),
                      info.toCompletableFuture()));
      return CompletableFuture.allOf(
              byAddress.values().stream()
                  .map(f -> f.exceptionally(t -> null))
                  .toArray(CompletableFuture[]::new))
          .thenApply(
              done -> {
                Map<String, String> answered = new TreeMap<>();
                Throwable failure = null;
                for (Map.Entry<String, CompletableFuture<String>> node : byAddress.entrySet()) {
                  try {
                    answered.put(node.getKey(), node.getValue().join());
                  } catch (RuntimeException e) {
                    failure = e.getCause() == null ? e : e.getCause();
                    log.warn("Redis at {} did not answer INFO server; not checked", node.getKey());
                  }
                }
                if (answered.isEmpty() && failure != null) {
                  throw new CompletionException(failure);
                }
                return answered;
              });
    }

    private static boolean reachable(RedisClusterNode node) {
      return !node.is(RedisClusterNode.NodeFlag.FAIL)
          && !node.is(RedisClusterNode.NodeFlag.EVENTUAL_FAIL)
          && !node.is(RedisClusterNode.NodeFlag.NOADDR);
    }
  }
}
