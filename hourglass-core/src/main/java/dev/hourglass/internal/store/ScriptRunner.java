package dev.hourglass.internal.store;

import dev.hourglass.spi.ScriptListener;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends script calls: on the delivery connection for the consumers' path ({@link Script#delivery}),
 * else on the shared one; tells the {@link ScriptListener}; turns failures into typed exceptions
 * ({@link Failures}). Scripts that catch up with the clock may ask for slot lists their caller did
 * not declare ({@link Status#NEED_SLOTS}): {@link #withSlots} calls them again with those declared.
 */
final class ScriptRunner {
  private static final Logger log = LoggerFactory.getLogger(ScriptRunner.class);

  /** Most rounds of {@link Status#NEED_SLOTS} one call follows; each round loads slot lists. */
  private static final int MAX_SLOT_ROUNDS = 1000;

  private final RedisConnector redis;
  private final ScriptRegistry scripts = ScriptRegistry.SHARED;
  private final ScriptListener listener;
  private final Executor callbacks;
  private final ReplicaAcks replicaAcks;

  ScriptRunner(
      RedisConnector redis, ScriptListener listener, Executor callbacks, Duration replicaTimeout) {
    this.redis = redis;
    this.listener = listener;
    this.callbacks = callbacks;
    this.replicaAcks = new ReplicaAcks(replicaTimeout);
  }

  RedisConnector redis() {
    return redis;
  }

  ScriptRegistry scripts() {
    return scripts;
  }

  /** Runs a script; the future fails with a typed exception. */
  CompletableFuture<List<Object>> run(Script script, Args keys, Args argv) {
    return run(script, keys, argv, 0);
  }

  /**
   * Runs a write script; with {@code replicas > 0} the future completes only once that many
   * replicas confirmed it ({@link ReplicaAcks}), and fails with an outcome-unknown {@link
   * dev.hourglass.RedisUnavailableException} when they do not in time. Such a write goes on the
   * connection of replica-acknowledged writes ({@link RedisConnector#replicatedConnection}), and
   * its WAIT after it, so that no claim and no plain write waits behind a WAIT.
   */
  CompletableFuture<List<Object>> run(Script script, Args keys, Args argv, int replicas) {
    boolean open = replicas > 0 ? redis.isReplicatedOpen() : redis.isOpen(script.delivery());
    return offThreadWhenClosed(open, () -> send(script, keys, argv, replicas));
  }

  /**
   * Sends a plain command on the shared or the delivery connection; the future fails with a typed
   * exception, and the call never connects on the caller's thread.
   */
  <T> CompletableFuture<T> command(
      boolean delivery, Function<RedisClusterAsyncCommands<byte[], byte[]>, RedisFuture<T>> call) {
    return offThreadWhenClosed(
        redis.isOpen(delivery),
        () -> {
          try {
            return call.apply(delivery ? redis.deliveryAsync() : redis.async())
                .toCompletableFuture()
                .exceptionallyCompose(this::failed);
          } catch (RuntimeException e) {
            return failed(e);
          }
        });
  }

  private <T> CompletableFuture<T> offThreadWhenClosed(
      boolean open, Supplier<CompletableFuture<T>> send) {
    if (!open) {
      // Using it would connect first, which blocks until connected: not on the caller's thread,
      // which may be one of Lettuce's event loops running the follow-up of another reply, and the
      // one the new connection needs.
      try {
        return CompletableFuture.supplyAsync(send, callbacks).thenCompose(reply -> reply);
      } catch (RejectedExecutionException e) {
        // closed: the call itself reports it
      }
    }
    return send.get();
  }

  private CompletableFuture<List<Object>> send(Script script, Args keys, Args argv, int replicas) {
    long started = System.nanoTime();
    CompletableFuture<List<Object>> reply;
    try {
      RedisConnection connection =
          replicas > 0
              ? redis.replicatedConnection()
              : script.delivery() ? redis.deliveryConnection() : redis.connection();
      byte[][] keyArray = keys.toArray();
      reply =
          scripts
              .run(connection.async(), script, keyArray, argv.toArray())
              .exceptionallyCompose(this::failed);
      if (replicas > 0) {
        reply =
            reply.thenCompose(
                r -> replicaAcks.confirm(connection, keyArray[0], replicas).thenApply(v -> r));
      }
    } catch (RuntimeException e) {
      reply = failed(e);
    }
    if (listener != ScriptListener.NONE) {
      reply.whenComplete((r, failure) -> observe(script, started, failure));
    }
    return reply;
  }

  private <T> CompletableFuture<T> failed(Throwable t) {
    return CompletableFuture.failedFuture(redis.failed(t));
  }

  private void observe(Script script, long startedNanos, Throwable failure) {
    try {
      listener.scriptCalled(
          script.scriptName(), Duration.ofNanos(System.nanoTime() - startedNanos), failure);
    } catch (RuntimeException e) {
      log.warn("script listener failed", e);
    }
  }

  /** ARGV of a call, given the starts of the slot lists it declares. */
  interface ArgvFor {
    Args build(List<Long> slots);
  }

  /**
   * Runs a script that takes every pool and then declared slot lists (KEYS) with their count and
   * starts (ARGV, after {@code head}); while it answers {@link Status#NEED_SLOTS}, runs it again
   * with the slot lists it named declared.
   */
  CompletableFuture<List<Object>> withSlots(Partition p, Script script, ArgvFor head) {
    return withSlots(p, script, head, List.of(), 0);
  }

  private CompletableFuture<List<Object>> withSlots(
      Partition p, Script script, ArgvFor head, List<Long> slots, int round) {
    Args keyArgs = p.keysWithAllPools();
    Args argv = head.build(slots);
    for (long start : slots) {
      keyArgs.add(p.slot(start));
      argv.add(start);
    }
    return run(script, keyArgs, argv)
        .thenCompose(
            reply -> {
              if (Reply.status(reply) != Status.NEED_SLOTS) {
                return CompletableFuture.completedFuture(reply);
              }
              if (round >= MAX_SLOT_ROUNDS) {
                return CompletableFuture.failedFuture(
                    new IllegalStateException(
                        script.scriptName() + " on " + p + " kept asking for slot lists"));
              }
              List<Long> needed = new ArrayList<>(reply.size() - 1);
              for (int i = 1; i < reply.size(); i++) {
                needed.add(Reply.num(reply.get(i)));
              }
              return withSlots(p, script, head, needed, round + 1);
            });
  }
}
