package dev.hourglass.internal.store;

import dev.hourglass.HourglassException;
import dev.hourglass.RedisUnavailableException;
import dev.hourglass.ReplicaAckException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.protocol.ConnectionIntent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Replica-acknowledged writes: after a write script's reply, {@code WAIT numreplicas timeout} on
 * the same physical connection, which covers every write that connection carried before it.
 *
 * <p>WAIT cannot run inside a script, and it covers only its own connection's writes, so it goes on
 * the connection that carried the script: on a standalone (or Sentinel-discovered) server the
 * shared or delivery connection itself; on a cluster the node connection Lettuce's cluster writer
 * uses for the slot of the script's first key. Lettuce keys those by (WRITE, host, port) of the
 * slot's master, and {@code getConnectionAsync(host, port, WRITE)} hands out that same pooled
 * connection (a node id would open another one, whose WAIT would cover nothing).
 *
 * <p>WAIT holds its connection until it answers, so writes share it (group commit): per physical
 * connection and replica count, one WAIT is in flight at a time; writes whose replies land
 * meanwhile wait for the next one, which is sent as soon as the first answers and covers them all.
 * A write never waits for a WAIT that was sent before its reply, since that one may have been
 * processed before the write.
 */
final class ReplicaAcks {
  private final long timeoutMs;
  private final Map<Object, Map<Integer, Group>> groups =
      Collections.synchronizedMap(new WeakHashMap<>());

  ReplicaAcks(Duration timeout) {
    this.timeoutMs = timeout.toMillis();
  }

  /**
   * Completes once {@code replicas} replicas hold every write the connection carried so far, or
   * fails with {@link ReplicaAckException} (too few in time) or an outcome-unknown {@link
   * RedisUnavailableException}.
   */
  CompletableFuture<Void> confirm(RedisConnection connection, byte[] firstKey, int replicas) {
    CompletableFuture<StatefulRedisConnection<byte[], byte[]>> node;
    try {
      node = writerOf(connection, firstKey);
    } catch (RuntimeException e) {
      node = CompletableFuture.failedFuture(e);
    }
    return node.exceptionallyCompose(t -> CompletableFuture.failedFuture(unknown(t)))
        .thenCompose(n -> group(n, replicas).join());
  }

  @SuppressWarnings("unchecked")
  private static CompletableFuture<StatefulRedisConnection<byte[], byte[]>> writerOf(
      RedisConnection connection, byte[] firstKey) {
    if (connection.stateful() instanceof StatefulRedisClusterConnection<?, ?> any) {
      var cluster = (StatefulRedisClusterConnection<byte[], byte[]>) any;
      RedisClusterNode master = cluster.getPartitions().getMasterBySlot(SlotHash.getSlot(firstKey));
      if (master == null) {
        return CompletableFuture.failedFuture(
            new IllegalStateException("no master known for the slot of the write"));
      }
      RedisURI uri = master.getUri();
      return cluster.getConnectionAsync(uri.getHost(), uri.getPort(), ConnectionIntent.WRITE);
    }
    return CompletableFuture.completedFuture(
        (StatefulRedisConnection<byte[], byte[]>) connection.stateful());
  }

  private Group group(StatefulRedisConnection<byte[], byte[]> node, int replicas) {
    synchronized (groups) {
      return groups
          .computeIfAbsent(node, k -> new HashMap<>())
          .computeIfAbsent(replicas, r -> new Group(node, r));
    }
  }

  /** Any failure after the write was applied leaves its outcome unknown. */
  private static RedisUnavailableException unknown(Throwable t) {
    Throwable cause = t instanceof CompletionException ? t.getCause() : t;
    if (cause instanceof RedisUnavailableException u && u.outcomeUnknown()) {
      return u;
    }
    HourglassException translated = Failures.translate(cause);
    return new RedisUnavailableException(
        "the write was applied but its replica acknowledgement failed: " + translated.getMessage(),
        true,
        cause);
  }

  /** The WAITs of one physical connection for one replica count. */
  private final class Group {
    private final StatefulRedisConnection<byte[], byte[]> node;
    private final int replicas;
    private List<CompletableFuture<Void>> next = new ArrayList<>();
    private boolean inFlight;

    Group(StatefulRedisConnection<byte[], byte[]> node, int replicas) {
      this.node = node;
      this.replicas = replicas;
    }

    CompletableFuture<Void> join() {
      CompletableFuture<Void> done = new CompletableFuture<>();
      List<CompletableFuture<Void>> batch = null;
      synchronized (this) {
        next.add(done);
        if (!inFlight) {
          inFlight = true;
          batch = take();
        }
      }
      if (batch != null) {
        send(batch);
      }
      return done;
    }

    private List<CompletableFuture<Void>> take() {
      List<CompletableFuture<Void>> batch = next;
      next = new ArrayList<>();
      return batch;
    }

    private void send(List<CompletableFuture<Void>> batch) {
      CompletableFuture<Long> acked;
      try {
        acked = node.async().waitForReplication(replicas, timeoutMs).toCompletableFuture();
      } catch (RuntimeException e) {
        acked = CompletableFuture.failedFuture(e);
      }
      acked.whenComplete(
          (count, failure) -> {
            List<CompletableFuture<Void>> following;
            synchronized (this) {
              following = next.isEmpty() ? null : take();
              inFlight = following != null;
            }
            if (following != null) {
              send(following);
            }
            settle(batch, count, failure);
          });
    }

    private void settle(List<CompletableFuture<Void>> batch, Long count, Throwable failure) {
      if (failure != null) {
        RedisUnavailableException error = unknown(failure);
        batch.forEach(f -> f.completeExceptionally(error));
      } else if (count < replicas) {
        ReplicaAckException error = new ReplicaAckException(replicas, count, timeoutMs);
        batch.forEach(f -> f.completeExceptionally(error));
      } else {
        batch.forEach(f -> f.complete(null));
      }
    }
  }
}
