package dev.hourglass.internal;

/**
 * One partition of a queue: its keys, pool count and how ids spread over the pools ({@link
 * Keys#poolIndex}), and helpers to assemble script KEYS.
 */
final class PartitionRef {
  final int index;
  final int pools;
  final boolean staggered;
  final Keys.Partition keys;
  private final String[] fixed;
  private final String poolsArg;

  PartitionRef(Keys keys, String queue, int index, int pools, boolean staggered) {
    this.index = index;
    this.pools = pools;
    this.staggered = staggered;
    this.keys = keys.partition(queue, index);
    this.fixed = this.keys.fixedKeys();
    this.poolsArg = staggered ? pools + ":staggered" : Integer.toString(pools);
  }

  /** The pool key of a job id. */
  String pool(String id) {
    return keys.pool(Keys.poolIndex(id, pools, staggered));
  }

  /** The ten prelude keys. */
  Args fixedKeys() {
    return new Args().addAll(fixed);
  }

  /** The prelude keys and the pool of one job. */
  Args keysFor(String id) {
    return fixedKeys().add(pool(id));
  }

  /** The prelude keys and every pool, in index order. */
  Args keysWithAllPools() {
    Args a = fixedKeys();
    for (int i = 0; i < pools; i++) {
      a.add(keys.pool(i));
    }
    return a;
  }

  /**
   * ARGV starting with the pool count, followed by {@code :staggered} when the pools are, as every
   * partition script expects.
   */
  Args argv() {
    return new Args().add(poolsArg);
  }

  String channel() {
    return keys.promoteChannel();
  }
}
