package dev.hourglass.internal.store;

import java.nio.charset.StandardCharsets;

/**
 * One partition of a queue: its keys (all with the hash tag {@code {queue.p}}) and its pool count.
 * Build with {@link Keys#partition}.
 */
public final class Partition {
  /** The keys every partition script receives first, in the order of includes/partition.lua. */
  private static final String[] FIXED_KEY_NAMES = {
    "meta",
    "near",
    "slots",
    "inflight",
    "leases",
    "dead",
    "ttl",
    "stats",
    "wake",
    "outbox",
    "prio",
    "sched",
    "rate"
  };

  private final String base; // ends with the hash tag and a colon
  private final int index;
  private final int pools;
  private final String[] fixedKeys;
  private final String[] poolKeys;

  Partition(String base, int index, int pools) {
    this.base = base;
    this.index = index;
    this.pools = pools;
    this.fixedKeys = new String[FIXED_KEY_NAMES.length];
    for (int i = 0; i < fixedKeys.length; i++) {
      fixedKeys[i] = base + FIXED_KEY_NAMES[i];
    }
    this.poolKeys = new String[pools];
    for (int i = 0; i < pools; i++) {
      poolKeys[i] = base + "pool:" + i;
    }
  }

  /** The start every key of this partition shares: the prefix, its hash tag and a colon. */
  String base() {
    return base;
  }

  public int index() {
    return index;
  }

  public int pools() {
    return pools;
  }

  /** The pool key of a job id. */
  public String pool(String id) {
    return poolKeys[Keys.poolIndex(id, pools)];
  }

  /**
   * The job's member: what Redis knows it by, its id and then one character, its pool's index (0 to
   * 44, below every character of an id, so that members sort as their ids do; see
   * includes/partition.lua).
   */
  public String member(String id) {
    return id + (char) Keys.poolIndex(id, pools);
  }

  /** The pool index a member names. */
  static int poolOfMember(String member) {
    return member.charAt(member.length() - 1);
  }

  /** The id of a member. */
  public static String idOf(String member) {
    return member.substring(0, member.length() - 1);
  }

  /** The key of pool {@code index}. */
  String poolKey(int index) {
    return poolKeys[index];
  }

  public String slot(long slotStart) {
    return base + "slot:" + slotStart;
  }

  public String meta() {
    return fixedKeys[0];
  }

  public String near() {
    return fixedKeys[1];
  }

  /** The index of the partition's slot lists. */
  public String slots() {
    return fixedKeys[2];
  }

  public String inflight() {
    return fixedKeys[3];
  }

  /** The partition's schedules (includes/schedule.lua). */
  public String sched() {
    return fixedKeys[11];
  }

  public String wake() {
    return fixedKeys[8];
  }

  public byte[] wakeKey() {
    return wake().getBytes(StandardCharsets.UTF_8);
  }

  /** Pub/sub channel on which scripts announce promoter work that falls due earlier than known. */
  public String channel() {
    return base + "promote";
  }

  /** The fixed keys. */
  Args fixedKeys() {
    return new Args().addAll(fixedKeys);
  }

  /** The fixed keys and the pool of one job. */
  Args keysFor(String id) {
    return fixedKeys().add(pool(id));
  }

  /** The fixed keys and every pool, in index order. */
  Args keysWithAllPools() {
    return fixedKeys().addAll(poolKeys);
  }

  /** ARGV starting with the pool count, as every partition script expects. */
  Args argv() {
    return new Args().add(pools);
  }

  @Override
  public String toString() {
    return base.substring(0, base.length() - 1);
  }
}
