package dev.hourglass.internal.store;

import io.lettuce.core.codec.CRC16;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32;

/**
 * Builds every Redis key Hourglass uses. Keys of one partition share one hash tag ({@link
 * #partitionTag}), so each partition script touches one cluster slot, and the tags of a queue's
 * partitions spread evenly over the cluster's slot space; the registry keys share the tag {@code
 * {meta}}.
 */
public final class Keys {
  /**
   * Version of the Redis layout these keys and the Lua scripts implement, stored in {@link
   * #layout()}. A client refuses a Redis that holds another; a layout change ships as a one-shot
   * migration (docs/ARCHITECTURE.md).
   */
  public static final String LAYOUT_VERSION = "9";

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

  /** Partition {@code index} of a queue of {@code partitions} partitions of {@code pools} pools. */
  public Partition partition(String queue, int index, int partitions, int pools) {
    return new Partition(
        prefix + ":{" + partitionTag(queue, index, partitions) + "}:", index, pools);
  }

  /** Cluster hash slots: a key's slot is the CRC16 of its hash tag modulo this. */
  public static final int CLUSTER_SLOTS = 16384;

  private static final Map<String, String> TAGS = new ConcurrentHashMap<>();

  /**
   * The hash tag (without braces) of partition {@code index} of {@code partitions}: {@code
   * queue.index} if its cluster slot falls inside the {@code index}-th of {@code partitions} equal
   * ranges of the slot space (not on the range's first or last slot, so that an even split of the
   * slots rounded either way puts it on the same node), else {@code queue.index~n} with the
   * smallest {@code n >= 1} whose slot does. So the partitions of a queue spread evenly over the
   * slot space by construction (three partitions on an even three-master split land on all three
   * masters, six on two each), and a queue of one partition keeps {@code queue.0}. Queue names
   * never hold {@code ~}, so no two partitions share a tag.
   */
  public static String partitionTag(String queue, int index, int partitions) {
    if (index < 0 || index >= partitions) {
      throw new IllegalArgumentException("partition " + index + " of " + partitions);
    }
    String plain = queue + "." + index;
    if (partitions == 1) {
      return plain;
    }
    String cached = TAGS.get(plain + "/" + partitions);
    if (cached != null) {
      return cached;
    }
    int from = (int) ((long) index * CLUSTER_SLOTS / partitions);
    int to = (int) ((long) (index + 1) * CLUSTER_SLOTS / partitions);
    String tag = plain;
    for (int n = 1; !inRange(slot(tag), from, to); n++) {
      tag = plain + "~" + n;
    }
    if (TAGS.size() > 100_000) {
      TAGS.clear(); // a bound, not an eviction policy: tags are cheap to compute again
    }
    TAGS.put(plain + "/" + partitions, tag);
    return tag;
  }

  /** The cluster slot of a hash tag (CRC16-CCITT of its UTF-8 bytes, as Redis computes it). */
  public static int slot(String tag) {
    return CRC16.crc16(tag.getBytes(StandardCharsets.UTF_8)) % CLUSTER_SLOTS;
  }

  private static boolean inRange(int slot, int from, int to) {
    return slot > from && slot < to - 1;
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

  /** The characters an id's pool character is one of, by pool index. */
  private static final String POOL_CHARACTERS =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

  /** Length of the ids the client makes ({@code RandomIds}): 19 characters, '.', the pool's. */
  public static final int MADE_ID_LENGTH = 21;

  /** The character that names pool {@code pool} (below 64) at the end of an id the client made. */
  public static char poolCharacter(int pool) {
    return POOL_CHARACTERS.charAt(pool);
  }

  /**
   * Pool of a job id among {@code pools}. An id the client made ({@code RandomIds}: 21 characters,
   * the 20th a '.') names its pool in its last character: the client chose it for the job's due
   * time ({@link #poolForDue}), so that jobs due about together share a pool and a claim or an ack
   * touches few. Any other id: 16 bits of a mix of its hash code, pool {@code i} taking a share
   * proportional to {@code pools + i}, so the pools' sizes span a factor of two, and Redis's hash
   * tables, which double when they hold as many entries as buckets, double (and move their entries)
   * at different queue sizes instead of all at once. Only this client computes it: the pool travels
   * to Redis as the last character of the job's member ({@link Partition#member}). The mix
   * (MurmurHash3's finalizer) makes the choice independent of the partition's, a CRC-32 of the id.
   */
  public static int poolIndex(String id, int pools) {
    if (id.length() == MADE_ID_LENGTH && id.charAt(MADE_ID_LENGTH - 2) == '.') {
      int named = POOL_CHARACTERS.indexOf(id.charAt(MADE_ID_LENGTH - 1));
      if (named >= 0) {
        return named % pools;
      }
    }
    return staggeredPool(mix(id.hashCode()) >>> 16, pools);
  }

  /**
   * The pool for a job due at {@code dueMs} whose id the client makes: the same for every job due
   * within one second, and over the seconds the staggered shares of {@link #poolIndex}.
   */
  public static int poolForDue(long dueMs, int pools) {
    return staggeredPool(mix(Long.hashCode(Math.floorDiv(dueMs, 1000))) >>> 16, pools);
  }

  /** MurmurHash3's 32-bit finalizer. */
  private static int mix(int h) {
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }

  /**
   * The pool {@code i} whose share {@code [C(i), C(i+1))} of {@code [0, C(pools))} holds {@code
   * first16} scaled to that range, where {@code C(i) = i * pools + i * (i - 1) / 2} sums the
   * weights {@code pools + j} of the pools before {@code i}. The square root only guesses; the
   * integer comparisons decide.
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
}
