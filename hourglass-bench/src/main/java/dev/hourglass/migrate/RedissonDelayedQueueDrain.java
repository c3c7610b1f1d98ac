package dev.hourglass.migrate;

import dev.hourglass.EnqueueResult;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.redisson.api.RMap;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.codec.Codec;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.handler.State;
import org.redisson.codec.CompositeCodec;

/**
 * Moves a Redisson delayed queue into an Hourglass queue: every element still delayed in the
 * RDelayedQueue, due when Redisson would have delivered it, and every element already in its
 * destination queue, due now. Each batch leaves Redisson in one script, into a staging hash where
 * it gets its Hourglass id, and is deleted from there once enqueued: a run stopped anywhere can be
 * run again, and nothing is lost or enqueued twice. Reads the keys RDelayedQueue writes (as of
 * Redisson 4.7.0), since no public call gives an element's due time.
 *
 * @param <T> the element type: Redisson's codec decodes it, the Hourglass queue's codec encodes it
 */
public final class RedissonDelayedQueueDrain<T> {
  // KEYS[1] delayed zset (member: the element packed with a random id, score: due ms),
  // KEYS[2] delayed list (same members), KEYS[3] destination list, KEYS[4] staging hash
  // (id -> 8-byte due ms, 0 for now, then the element as Redisson encoded it).
  // ARGV[1] batch size, ARGV[2] unique token naming the destination's elements (equal ones are
  // indistinguishable there). Returns how many elements it staged.
  private static final String STAGE =
      """
      local limit, staged = tonumber(ARGV[1]), 0
      while staged < limit do
        local value = redis.call('lpop', KEYS[3])
        if not value then break end
        staged = staged + 1
        redis.call('hset', KEYS[4], 'redisson-' .. ARGV[2] .. '-' .. staged,
          struct.pack('>i8', 0) .. value)
      end
      if staged == limit then return staged end
      local delayed = redis.call('zrange', KEYS[1], 0, limit - staged - 1, 'WITHSCORES')
      for i = 1, #delayed, 2 do
        local member = delayed[i]
        local _, value = struct.unpack('Bc0Lc0', member)
        redis.call('zrem', KEYS[1], member)
        redis.call('lrem', KEYS[2], 1, member)
        redis.call('hset', KEYS[4], 'redisson-' .. redis.sha1hex(member),
          struct.pack('>i8', tonumber(delayed[i + 1])) .. value)
        staged = staged + 1
      end
      return staged
      """;

  private final RedissonClient redisson;
  private final Codec codec;
  private final Queue<T> target;
  private final int batchSize;
  private final List<Object> keys;

  /**
   * @param codec the codec of the Redisson queue (Redisson's default is Kryo5Codec)
   * @param destination the name of the RBlockingQueue the RDelayedQueue delivers to
   * @param batchSize elements per script call and per enqueueAll, 1 to 10000
   */
  public RedissonDelayedQueueDrain(
      RedissonClient redisson, Codec codec, String destination, Queue<T> target, int batchSize) {
    if (batchSize < 1 || batchSize > 10_000) {
      throw new IllegalArgumentException("batchSize must be 1 to 10000, was " + batchSize);
    }
    this.redisson = redisson;
    this.codec = codec;
    this.target = target;
    this.batchSize = batchSize;
    this.keys =
        List.of(
            key("redisson_delay_queue_timeout", destination),
            key("redisson_delay_queue", destination),
            destination,
            key("hourglass_drain", destination));
  }

  /** Redisson's key naming: every key of one delayed queue shares the destination's hash slot. */
  private static String key(String prefix, String name) {
    return name.contains("{") ? prefix + ":" + name : prefix + ":{" + name + "}";
  }

  /**
   * Drains until a pass finds nothing left in Redisson.
   *
   * @return the jobs this run created (0 when run again after a complete drain)
   */
  public long drain() {
    long created = enqueueStaged(); // what a stopped run left staged
    while (stage() > 0) {
      created += enqueueStaged();
    }
    return created;
  }

  private long stage() {
    String token = UUID.randomUUID().toString();
    return redisson
        .getScript(StringCodec.INSTANCE)
        .eval(
            (String) keys.get(2),
            RScript.Mode.READ_WRITE,
            STAGE,
            RScript.ReturnType.LONG,
            keys,
            batchSize,
            token);
  }

  private long enqueueStaged() {
    RMap<String, byte[]> staging =
        redisson.getMap(
            (String) keys.get(3),
            new CompositeCodec(StringCodec.INSTANCE, ByteArrayCodec.INSTANCE));
    Map<String, byte[]> staged = staging.readAllMap();
    if (staged.isEmpty()) {
      return 0;
    }
    List<JobSpec> specs = new ArrayList<>();
    staged.forEach((id, entry) -> specs.add(spec(id, entry)));
    // A job enqueued before a stop comes back as a duplicate (created false), not a second job.
    long created = target.enqueueAll(specs).stream().filter(EnqueueResult::created).count();
    staging.fastRemove(staged.keySet().toArray(String[]::new));
    return created;
  }

  private JobSpec spec(String id, byte[] entry) {
    long dueMs = ByteBuffer.wrap(entry).getLong();
    JobSpec.Builder spec = target.spec(decode(entry)).id(id);
    return (dueMs == 0 ? spec : spec.runAt(Instant.ofEpochMilli(dueMs))).build();
  }

  @SuppressWarnings("unchecked")
  private T decode(byte[] entry) {
    try {
      return (T)
          codec
              .getValueDecoder()
              .decode(Unpooled.wrappedBuffer(entry, 8, entry.length - 8), new State());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot decode a Redisson element with " + codec, e);
    }
  }
}
