package dev.hourglass.internal.store;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

/**
 * One Lettuce connection, to a standalone server or to a cluster, seen through the command
 * interfaces both kinds implement. On a cluster connection every keyed command goes to the master
 * owning its first key's slot (a script by its KEYS, BLPOP by its key); keyless commands such as
 * {@code TIME} go to any node.
 */
public record RedisConnection(
    StatefulConnection<byte[], byte[]> stateful,
    RedisClusterAsyncCommands<byte[], byte[]> async,
    RedisClusterCommands<byte[], byte[]> sync) {

  static RedisConnection of(StatefulRedisConnection<byte[], byte[]> c) {
    return new RedisConnection(c, c.async(), c.sync());
  }

  static RedisConnection of(StatefulRedisClusterConnection<byte[], byte[]> c) {
    return new RedisConnection(c, c.async(), c.sync());
  }

  public boolean isOpen() {
    return stateful.isOpen();
  }

  public void close() {
    stateful.close();
  }

  public void closeAsync() {
    stateful.closeAsync();
  }
}
