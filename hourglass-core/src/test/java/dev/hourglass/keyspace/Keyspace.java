package dev.hourglass.keyspace;

import dev.hourglass.internal.RandomIds;
import dev.hourglass.internal.store.Keys;
import dev.hourglass.internal.store.RecordCodec;
import java.time.Clock;

/**
 * What hourglass-bench must know of Hourglass's layout (docs/ARCHITECTURE.md, "Keys"), from core's
 * own code rather than copied: the hash tag and cluster slot of a partition, for placing partitions
 * on cluster masters and reading their keys; and the ids, pools, slots and records that the
 * raw-Redis floor of the cost workload writes, so that it stores what Hourglass stores. Shipped in
 * core's test jar, not in the library.
 */
public final class Keyspace {
  private static final RandomIds IDS = new RandomIds(Clock.systemUTC());

  private Keyspace() {}

  /** The hash tag of partition {@code index} of a queue of {@code partitions} partitions. */
  public static String partitionTag(String queue, int index, int partitions) {
    return Keys.partitionTag(queue, index, partitions);
  }

  /** The cluster slot of a hash tag. */
  public static int slot(String tag) {
    return Keys.slot(tag);
  }

  /** A new random job id, as the client makes them. */
  public static String newId() {
    return IDS.newId();
  }

  /** The pool of {@code pools} that holds the job of this id. */
  public static int poolIndex(String id, int pools) {
    return Keys.poolIndex(id, pools);
  }

  /**
   * The start of the time slot of slot width {@code slotMs} that a job due at {@code dueMs} is in.
   */
  public static long slotStart(long dueMs, long slotMs) {
    return Keys.slotStart(dueMs, slotMs);
  }

  /** The record of a new job, as the client writes it. */
  public static byte[] newRecord(
      long dueMs, long createdMs, int maxAttempts, long visibilityMs, byte[] payload) {
    return RecordCodec.newRecord(dueMs, createdMs, maxAttempts, visibilityMs, payload);
  }
}
