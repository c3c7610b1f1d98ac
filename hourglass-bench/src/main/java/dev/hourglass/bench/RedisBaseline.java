package dev.hourglass.bench;

import dev.hourglass.QueueSettings;
import dev.hourglass.bench.Payloads.Job;
import dev.hourglass.keyspace.Keyspace;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The scale workload's raw-Redis baseline: per job, the Redis commands Hourglass's enqueue.lua runs
 * for a job due after the watermark, into keys of the same kinds and number, sent by Lettuce as one
 * pipeline per batch and without Lua. Filled alone, it shows how much an enqueue slows with the
 * queue's size because of Redis itself (its hash tables doubling, caches missed, new memory).
 *
 * <p>{@code Queue.enqueueAllAsync} sends a batch as script calls of {@value #JOBS_PER_SCRIPT_CALL}
 * jobs of one partition, and every such call of far-future jobs runs: HMGET meta (eight fields);
 * TIME; per pool its jobs fall in, one HMGET of their ids (the duplicate check) and one HSET of id
 * and record each; per slot list, LLEN, a ZADD to the slot index when the list is new, one RPUSH of
 * the ids; HINCRBY stats enqueued. When the call's earliest slot is earlier than any before, also
 * HSET meta cu and HSET meta due with a PUBLISH to the promoters; the first call also writes meta
 * pools and wm. The baseline issues the same, per group of {@value #JOBS_PER_SCRIPT_CALL} jobs, as
 * enqueue.lua does. Where the script decides from a reply (LLEN is 0: the list is new), the
 * baseline knows it already, as the only writer. The RESULT line's {@code fill_calls_per_1000_jobs}
 * shows the commands Redis ran, to set beside Hourglass's.
 */
final class RedisBaseline implements AutoCloseable {
  /** Jobs per enqueue.lua call of {@code Queue.enqueueAllAsync}. */
  static final int JOBS_PER_SCRIPT_CALL = 500;

  /** Instead of Hourglass's {@code hg}, so that the baseline's keys are never taken for its. */
  static final String PREFIX = "baseline";

  private static final byte[][] META_FIELDS =
      bytes("pools", "wm", "due", "cu", "po", "pu", "ret", "sig");
  private static final int POOLS = QueueSettings.DEFAULT_POOLS;
  private static final long SLOT_MS = QueueSettings.DEFAULT_SLOT_WIDTH.toMillis();

  private final RedisClient client;
  private final StatefulRedisConnection<byte[], byte[]> connection;
  private final RedisAsyncCommands<byte[], byte[]> redis;
  private final String base;
  private final byte[] meta;
  private final byte[] slots;
  private final byte[] stats;
  private final byte[] promoteChannel;
  private final Set<Long> slotLists = new HashSet<>(); // slot lists created so far
  private boolean partitionCreated;
  private long metaClockWork = Long.MAX_VALUE; // meta.cu as last written
  private long metaDue = Long.MAX_VALUE; // meta.due as last written

  /** One connection to {@code redisUri}; the keys are those of partition 0 of {@code queue}. */
  RedisBaseline(String redisUri, String queue) {
    this.client = RedisClient.create(redisUri);
    this.connection = client.connect(ByteArrayCodec.INSTANCE);
    connection.setAutoFlushCommands(false); // each batch goes out as one write
    this.redis = connection.async();
    this.base = PREFIX + ":{" + queue + ".0}:";
    this.meta = bytes(base + "meta");
    this.slots = bytes(base + "slots");
    this.stats = bytes(base + "stats");
    this.promoteChannel = bytes(base + "promote");
  }

  /**
   * Sends the commands of {@code jobs} (called from one thread at a time); the future completes
   * when Redis has run them all, exceptionally if any failed.
   */
  CompletableFuture<?> enqueueBatchAsync(List<Job> jobs) {
    List<CompletableFuture<?>> replies = new ArrayList<>();
    for (int from = 0; from < jobs.size(); from += JOBS_PER_SCRIPT_CALL) {
      scriptCall(jobs.subList(from, Math.min(jobs.size(), from + JOBS_PER_SCRIPT_CALL)), replies);
    }
    connection.flushCommands();
    return CompletableFuture.allOf(replies.toArray(new CompletableFuture<?>[0]));
  }

  /** The commands of one enqueue.lua call, in its order. */
  private void scriptCall(List<Job> jobs, List<CompletableFuture<?>> replies) {
    long now = System.currentTimeMillis();
    replies.add(redis.hmget(meta, META_FIELDS).toCompletableFuture());
    if (!partitionCreated) {
      replies.add(hset(meta, "pools", Integer.toString(POOLS)));
    }
    replies.add(redis.time().toCompletableFuture());

    // Grouped as the script groups them: pools and slot lists in the order jobs first name them.
    Map<Integer, Map<byte[], byte[]>> byPool = new LinkedHashMap<>();
    Map<Long, List<byte[]>> bySlot = new LinkedHashMap<>();
    long slotMin = Long.MAX_VALUE;
    for (Job job : jobs) {
      byte[] id = Keyspace.newId().getBytes(StandardCharsets.UTF_8);
      byte[] record =
          Keyspace.newRecord(
              job.dueMs(),
              now,
              QueueSettings.DEFAULT_MAX_ATTEMPTS,
              QueueSettings.DEFAULT_VISIBILITY.toMillis(),
              job.payload());
      byPool
          .computeIfAbsent(
              Keyspace.poolIndex(new String(id, StandardCharsets.UTF_8), POOLS),
              k -> new LinkedHashMap<>())
          .put(id, record);
      long slotStart = Keyspace.slotStart(job.dueMs(), SLOT_MS);
      bySlot.computeIfAbsent(slotStart, k -> new ArrayList<>()).add(id);
      slotMin = Math.min(slotMin, slotStart);
    }
    byPool.forEach(
        (pool, records) ->
            replies.add(
                redis
                    .hmget(pool(pool), records.keySet().toArray(new byte[0][]))
                    .toCompletableFuture()));
    if (!partitionCreated) {
      replies.add(hset(meta, "wm", Long.toString(now))); // the first placement sets the watermark
      partitionCreated = true;
    }
    byPool.forEach(
        (pool, records) -> replies.add(redis.hset(pool(pool), records).toCompletableFuture()));
    bySlot.forEach(
        (slotStart, ids) -> {
          byte[] list = bytes(base + "slot:" + slotStart);
          replies.add(redis.llen(list).toCompletableFuture());
          if (slotLists.add(slotStart)) {
            byte[] start = bytes(Long.toString(slotStart));
            replies.add(redis.zadd(slots, (double) slotStart, start).toCompletableFuture());
          }
          replies.add(redis.rpush(list, ids.toArray(new byte[0][])).toCompletableFuture());
        });
    if (slotMin < metaClockWork) {
      replies.add(hset(meta, "cu", Long.toString(slotMin)));
      metaClockWork = slotMin;
    }
    long due = slotMin - SLOT_MS; // a slot is loaded one slot width before it starts
    if (due < metaDue) {
      replies.add(hset(meta, "due", Long.toString(due)));
      replies.add(redis.publish(promoteChannel, bytes(Long.toString(due))).toCompletableFuture());
      metaDue = due;
    }
    replies.add(redis.hincrby(stats, bytes("enqueued"), jobs.size()).toCompletableFuture());
  }

  private byte[] pool(int index) {
    return bytes(base + "pool:" + index);
  }

  private CompletableFuture<?> hset(byte[] key, String field, String value) {
    return redis.hset(key, bytes(field), bytes(value)).toCompletableFuture();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[][] bytes(String... s) {
    byte[][] b = new byte[s.length][];
    for (int i = 0; i < s.length; i++) {
      b[i] = bytes(s[i]);
    }
    return b;
  }

  @Override
  public void close() {
    try {
      connection.close();
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }
}
