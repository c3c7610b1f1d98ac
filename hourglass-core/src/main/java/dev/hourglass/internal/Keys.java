package dev.hourglass.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.zip.CRC32;

/**
 * Builds every Redis key Hourglass uses. Keys of one partition share the hash tag {@code
 * {queue.p}}, so each partition script touches one cluster slot; the registry keys share the tag
 * {@code {meta}}.
 */
public final class Keys {
  /**
   * Version of the Redis layout these keys and the Lua scripts implement. Version 2 keeps ready
   * jobs in near, where version 1 moved them to the ready set; it reads version-1 data as it is.
   * Version 3 creates queues with staggered pools ({@link #poolIndex}); queues created before keep
   * their even pools. Version 4 writes slot-list entries as the bare id, where 1 to 3 put the due
   * time before it; it reads both.
   */
  public static final String LAYOUT_VERSION = "4";

  /** Earlier layout versions, which a client of this version upgrades on connect. */
  static final String LAYOUT_1 = "1";

  static final String LAYOUT_2 = "2";

  static final String LAYOUT_3 = "3";

  /** The partition keys every partition script receives first, in the order of the Lua prelude. */
  private static final String[] PARTITION_KEY_NAMES = {
    "meta", "near", "slots", "ready", "inflight", "leases", "dead", "ttl", "stats", "wake"
  };

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

  /** The keys of one partition. */
  public Partition partition(String queue, int partition) {
    return new Partition(prefix + ":{" + queue + "." + partition + "}:");
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
   * Sub-pool of a job id among {@code pools}, from the first 16 bits of its SHA-1 (mirrors
   * pool_index in prelude.lua). Even: those bits modulo the pool count, so the pools grow alike.
   * Staggered (queues created by layout 3): pool {@code i} takes a share proportional to {@code
   * pools + i}, so the pools' sizes span a factor of two, and Redis's hash tables, which double
   * when they hold as many entries as buckets, double (and move their entries) at different queue
   * sizes instead of all at once.
   */
  public static int poolIndex(String id, int pools, boolean staggered) {
    byte[] sha = sha1(id.getBytes(StandardCharsets.UTF_8));
    int first16 = ((sha[0] & 0xff) << 8) | (sha[1] & 0xff);
    return staggered ? staggeredPool(first16, pools) : first16 % pools;
  }

  /**
   * The pool {@code i} whose share {@code [C(i), C(i+1))} of {@code [0, C(pools))} holds {@code
   * first16} scaled to that range, where {@code C(i) = i * pools + i * (i - 1) / 2} sums the
   * weights {@code pools + j} of the pools before {@code i}. The square root only guesses; the
   * integer comparisons decide, so Java and Lua agree exactly.
   */
  static int staggeredPool(int first16, int pools) {
    long y = first16 * staggeredWeightBefore(pools, pools) / 65536;
    double b = pools - 0.5;
    int i = (int) Math.floor(Math.sqrt(b * b + 2.0 * y) - b);
    while (i + 1 < pools && staggeredWeightBefore(i + 1, pools) <= y) {
      i++;
    }
    while (i > 0 && staggeredWeightBefore(i, pools) > y) {
      i--;
    }
    return i;
  }

  private static long staggeredWeightBefore(int i, int pools) {
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

  /** Keys of one partition; {@code base} ends with the hash tag and a colon. */
  public static final class Partition {
    private final String base;

    Partition(String base) {
      this.base = base;
    }

    /** The ten keys every partition script receives first. */
    public String[] fixedKeys() {
      String[] keys = new String[PARTITION_KEY_NAMES.length];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = base + PARTITION_KEY_NAMES[i];
      }
      return keys;
    }

    public String pool(int index) {
      return base + "pool:" + index;
    }

    public String slot(long slotStart) {
      return base + "slot:" + slotStart;
    }

    public String meta() {
      return base + "meta";
    }

    public String wake() {
      return base + "wake";
    }

    /** Pub/sub channel on which enqueues announce a new earliest due time to promoters. */
    public String promoteChannel() {
      return base + "promote";
    }
  }
}
