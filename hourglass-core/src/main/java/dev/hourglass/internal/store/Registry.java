package dev.hourglass.internal.store;

import dev.hourglass.LayoutVersionException;
import dev.hourglass.internal.store.Replies.QueueRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** The calls on the registry keys ({@code {meta}}): layout version, queue names and settings. */
public final class Registry {
  private final ScriptRunner runner;
  private final Keys keys;
  private final ServerClock serverClock;

  Registry(ScriptRunner runner, Keys keys, ServerClock serverClock) {
    this.runner = runner;
    this.keys = keys;
    this.serverClock = serverClock;
  }

  /**
   * Writes the layout version on an empty Redis, refuses one that holds another, and reads the
   * server clock once.
   *
   * @throws LayoutVersionException when Redis holds data of another layout version
   */
  public void checkLayout() {
    byte[] key = bytes(keys.layout());
    var redis = runner.redis().async();
    Failures.await(redis.setnx(key, bytes(Keys.LAYOUT_VERSION)).toCompletableFuture());
    byte[] stored = Failures.await(redis.get(key).toCompletableFuture());
    String version = stored == null ? null : new String(stored, StandardCharsets.UTF_8);
    if (!Keys.LAYOUT_VERSION.equals(version)) {
      throw new LayoutVersionException(
          "Redis key "
              + keys.layout()
              + " says layout version "
              + version
              + ", and this Hourglass knows layout version "
              + Keys.LAYOUT_VERSION
              + " only; migrate the data (docs/ARCHITECTURE.md, \"Changing the layout\") or use"
              + " another prefix");
    }
    List<byte[]> time = Failures.await(redis.time().toCompletableFuture());
    serverClock.observe(
        Long.parseLong(new String(time.get(0), StandardCharsets.US_ASCII)) * 1000
            + Long.parseLong(new String(time.get(1), StandardCharsets.US_ASCII)) / 1000);
  }

  public boolean queueExists(String name) {
    return Failures.await(queueExistsAsync(name));
  }

  /** {@link #queueExists} without blocking. */
  public CompletableFuture<Boolean> queueExistsAsync(String name) {
    return runner.command(false, c -> c.sismember(bytes(keys.queueRegistry()), bytes(name)));
  }

  /** Every queue name in the registry, sorted. */
  public List<String> queueNames() {
    return Failures.await(queueNamesAsync());
  }

  /** {@link #queueNames()} without blocking; never connects on the caller's thread. */
  public CompletableFuture<List<String>> queueNamesAsync() {
    return runner
        .<Set<byte[]>>command(false, c -> c.smembers(bytes(keys.queueRegistry())))
        .thenApply(
            members -> {
              List<String> names = new ArrayList<>();
              for (byte[] m : members) {
                names.add(new String(m, StandardCharsets.UTF_8));
              }
              names.sort(null);
              return names;
            });
  }

  /** The settings version counter (0 before any queue was created). */
  public CompletableFuture<Long> settingsVersion() {
    return runner
        .<byte[]>command(true, c -> c.get(bytes(keys.settingsVersion())))
        .thenApply(v -> v == null ? 0L : Long.parseLong(new String(v, StandardCharsets.US_ASCII)));
  }

  /**
   * Creates a queue or updates its settings ({@code createOnly}: leaves an existing queue as it
   * is); the settings as stored after the call.
   */
  public CompletableFuture<QueueRecord> upsertQueue(
      String queue, boolean createOnly, Map<String, String> fields) {
    Args keyArgs =
        new Args()
            .add(keys.queueRegistry())
            .add(keys.queueSettings(queue))
            .add(keys.settingsVersion())
            .add(keys.outboxBound());
    Args argv = new Args().add(queue).add(createOnly ? "1" : "0");
    fields.forEach((k, v) -> argv.add(k).add(v));
    return runner
        .run(Script.QUEUE_UPSERT, keyArgs, argv)
        .thenApply(
            reply -> {
              Map<String, String> stored = new HashMap<>();
              List<Object> flat = Reply.list(reply.get(2));
              for (int i = 0; i + 1 < flat.size(); i += 2) {
                stored.put(Reply.str(flat.get(i)), Reply.str(flat.get(i + 1)));
              }
              Set<String> changed = new HashSet<>();
              for (Object field : Reply.list(reply.get(4))) {
                changed.add(Reply.str(field));
              }
              return new QueueRecord(
                  Reply.num(reply.get(0)) == 1,
                  Reply.num(reply.get(1)),
                  stored,
                  Reply.num(reply.get(3)),
                  changed);
            });
  }

  /** The outbox bound, 0 while finished jobs are not recorded. */
  public CompletableFuture<Long> outboxBound() {
    return runner
        .<byte[]>command(true, c -> c.get(bytes(keys.outboxBound())))
        .thenApply(v -> v == null ? 0L : Long.parseLong(new String(v, StandardCharsets.US_ASCII)));
  }

  /** Sets the outbox bound, or removes it when {@code bound} is 0. */
  public CompletableFuture<Void> outboxBound(long bound) {
    byte[] key = bytes(keys.outboxBound());
    CompletableFuture<?> done =
        bound > 0
            ? runner.<String>command(true, c -> c.set(key, bytes(Long.toString(bound))))
            : runner.<Long>command(true, c -> c.del(key));
    return done.thenApply(r -> null);
  }

  /**
   * Removes a queue from the registry (its partitions must be dropped first) and raises the
   * settings version: the new version.
   */
  public CompletableFuture<Long> deleteQueue(String queue) {
    Args keyArgs =
        new Args()
            .add(keys.queueRegistry())
            .add(keys.queueSettings(queue))
            .add(keys.settingsVersion());
    return runner
        .run(Script.QUEUE_DELETE, keyArgs, new Args().add(queue))
        .thenApply(reply -> Reply.num(reply.get(0)));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
