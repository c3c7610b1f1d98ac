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
  // The same keys encoded once, as every script call sends them (shared: never written to).
  private final byte[][] fixedKeyBytes;
  private final byte[][] poolKeyBytes;
  private final byte[] poolCount;

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
    this.fixedKeyBytes = encode(fixedKeys);
    this.poolKeyBytes = encode(poolKeys);
    this.poolCount = Args.digits(pools);
  }

  private static byte[][] encode(String[] keys) {
    byte[][] out = new byte[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      out[i] = keys[i].getBytes(StandardCharsets.UTF_8);
    }
    return out;
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

  /**
   * {@link #member} as the bytes a script call sends: a job id is ASCII ({@code
   * JobSpec.isValidId}), so each character is one byte, and so is the pool's index.
   */
  byte[] memberBytes(String id) {
    int n = id.length();
    byte[] b = new byte[n + 1];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) id.charAt(i);
    }
    b[n] = (byte) Keys.poolIndex(id, pools);
    return b;
  }

  /** The pool index a member names. */
  static int poolOfMember(String member) {
    return member.charAt(member.length() - 1);
  }

  /** The id of a member. */
  public static String idOf(String member) {
    return member.substring(0, member.length() - 1);
  }

  /** The id of a member as a script replies with it, without the member as a String first. */
  static String idOf(byte[] member) {
    return new String(member, 0, member.length - 1, StandardCharsets.UTF_8);
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

  /** The encoded key of pool {@code index} (shared: never written to). */
  byte[] poolKeyBytes(int index) {
    return poolKeyBytes[index];
  }

  /** The fixed keys. */
  Args fixedKeys() {
    return new Args(fixedKeyBytes.length + 8).addAll(fixedKeyBytes);
  }

  /** The fixed keys and the pool of one job. */
  Args keysFor(String id) {
    return fixedKeys().add(poolKeyBytes[Keys.poolIndex(id, pools)]);
  }

  /** The fixed keys and every pool, in index order. */
  Args keysWithAllPools() {
    return new Args(fixedKeyBytes.length + poolKeyBytes.length + 4)
        .addAll(fixedKeyBytes)
        .addAll(poolKeyBytes);
  }

  /** ARGV starting with the pool count, as every partition script expects. */
  Args argv() {
    return new Args().add(poolCount);
  }

  /** {@link #argv()} with room for {@code expected} items. */
  Args argv(int expected) {
    return new Args(expected).add(poolCount);
  }

  @Override
  public String toString() {
    return base.substring(0, base.length() - 1);
  }
}
