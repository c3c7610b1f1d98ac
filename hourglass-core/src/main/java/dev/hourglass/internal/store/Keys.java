package dev.hourglass.internal.store;

import io.lettuce.core.cluster.SlotHash;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.zip.CRC32;

/**
 * Builds every Redis key Hourglass uses. Keys of one partition share a hash tag ({@link
 * #partitionTag}), so each partition script touches one cluster slot; the registry keys share the
 * tag {@code {meta}}.
 */
public final class Keys {
  /**
   * Version of the Redis layout these keys and the Lua scripts implement, stored in {@link
   * #layout()}. A client refuses a Redis that holds another; a layout change ships as a one-shot
   * migration (docs/ARCHITECTURE.md).
   */
  public static final String LAYOUT_VERSION = "7";

  private final String prefix;

  public Keys(String prefix) {
    this.prefix = prefix;
  }

  public String layout() {
    return prefix + ":{meta}:layout";
  }

  public String queueRegistry() {
    return prefix + ":{meta}:queues";
  }

  public String queueSettings(String queue) {
    return prefix + ":{meta}:queue:" + queue;
  }

  /** A counter raised by every change to any queue's settings (queue_upsert.lua). */
  public String settingsVersion() {
    return prefix + ":{meta}:settings-version";
  }

  /**
   * The outbox bound while finished jobs are recorded for an archive ({@code Outbox.enable});
   * absent while they are not.
   */
  public String outboxBound() {
    return prefix + ":{meta}:outbox-bound";
  }

  /**
   * Partition {@code index} of a queue of {@code partitions} partitions, each of {@code pools}
   * pools.
   */
  public Partition partition(String queue, int index, int partitions, int pools) {
    return new Partition(
        prefix + ":{" + partitionTag(queue, index, partitions) + "}:", index, pools);
  }

  /**
   * The hash tag of a partition: {@code queue.index}, and with more than one partition a suffix
   * {@code #n}, the smallest n that puts the tag's cluster slot in the index-th of {@code
   * partitions} equal ranges of the 16384 slots. A cluster whose masters own contiguous, even
   * shares of the slots (as {@code redis-cli --cluster create} makes them) so has a queue's
   * partitions spread evenly over its masters by construction: with 3 partitions on 3 masters, one
   * on each (a slot hash of the plain name would put two on one master a third of the time). No two
   * queues share a tag: queue names have no {@code #}, so a tag with one is {@code name.index#n}
   * and one without is {@code name.index}, and either parses back from the right (index and n are
   * numbers).
   */
  static String partitionTag(String queue, int index, int partitions) {
    String tag = queue + "." + index;
    if (partitions == 1) {
      return tag;
    }
    long from = (long) SlotHash.SLOT_COUNT * index / partitions;
    long to = (long) SlotHash.SLOT_COUNT * (index + 1) / partitions;
    for (int n = 0; ; n++) {
      String candidate = tag + "#" + n;
      int slot = SlotHash.getSlot(candidate);
      if (slot >= from && slot < to) {
        return candidate;
      }
    }
  }

  /**
   * The start of the time slot of width {@code slotMs} that a job due at {@code dueMs} belongs in:
   * the name of its slot list ({@link Partition#slot}).
   */
  public static long slotStart(long dueMs, long slotMs) {
    return Math.floorDiv(dueMs, slotMs) * slotMs;
  }

  /** Partition of a job id among {@code partitions}: CRC-32 of its UTF-8 bytes. */
  public static int partitionOf(String id, int partitions) {
    if (partitions == 1) {
      return 0;
    }
    CRC32 crc = new CRC32();
    crc.update(id.getBytes(StandardCharsets.UTF_8));
    return (int) (crc.getValue() % partitions);
  }

  /**
   * Pool of a job id among {@code pools}, from the first 16 bits of its SHA-1 (mirrors pool_index
   * in includes/pools.lua): pool {@code i} takes a share proportional to {@code pools + i}, so the
   * pools' sizes span a factor of two, and Redis's hash tables, which double when they hold as many
   * entries as buckets, double (and move their entries) at different queue sizes instead of all at
   * once.
   */
  public static int poolIndex(String id, int pools) {
    return poolIndex(id.getBytes(StandardCharsets.UTF_8), pools);
  }

  /** {@link #poolIndex(String, int)} of an id's UTF-8 bytes. */
  public static int poolIndex(byte[] id, int pools) {
    byte[] sha = sha1(id);
    int first16 = ((sha[0] & 0xff) << 8) | (sha[1] & 0xff);
    return staggeredPool(first16, pools);
  }

  /**
   * The pool {@code i} whose share {@code [C(i), C(i+1))} of {@code [0, C(pools))} holds {@code
   * first16} scaled to that range, where {@code C(i) = i * pools + i * (i - 1) / 2} sums the
   * weights {@code pools + j} of the pools before {@code i}. The square root only guesses; the
   * integer comparisons decide, so Java and Lua agree exactly.
   */
  static int staggeredPool(int first16, int pools) {
    long y = first16 * weightBefore(pools, pools) / 65536;
    double b = pools - 0.5;
    int i = (int) Math.floor(Math.sqrt(b * b + 2.0 * y) - b);
    while (i + 1 < pools && weightBefore(i + 1, pools) <= y) {
      i++;
    }
    while (i > 0 && weightBefore(i, pools) > y) {
      i--;
    }
    return i;
  }

  private static long weightBefore(int i, int pools) {
    return (long) i * pools + (long) i * (i - 1) / 2;
  }

  private static final ThreadLocal<MessageDigest> SHA1 =
      ThreadLocal.withInitial(
          () -> {
            try {
              return MessageDigest.getInstance("SHA-1");
            } catch (NoSuchAlgorithmException e) {
              throw new IllegalStateException("SHA-1 is required of every Java platform", e);
            }
          });

  /** SHA-1 of the bytes, with a digest per thread. */
  static byte[] sha1(byte[] bytes) {
    return SHA1.get().digest(bytes); // digest() also resets it for the next use
  }
}
