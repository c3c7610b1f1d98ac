package dev.hourglass.internal;

/** One partition of a queue: its keys and pool count, and helpers to assemble script KEYS. */
final class PartitionRef {
  final int index;
  final int pools;
  final Keys.Partition keys;
  private final String[] fixed;

  PartitionRef(Keys keys, String queue, int index, int pools) {
    this.index = index;
    this.pools = pools;
    this.keys = keys.partition(queue, index);
    this.fixed = this.keys.fixedKeys();
  }

  /** The ten prelude keys. */
  Args fixedKeys() {
    return new Args().addAll(fixed);
  }

  /** The prelude keys and the pool of one job. */
  Args keysFor(String id) {
    return fixedKeys().add(keys.pool(id, pools));
  }

  /** The prelude keys and every pool, in index order. */
  Args keysWithAllPools() {
    Args a = fixedKeys();
    for (int i = 0; i < pools; i++) {
      a.add(keys.pool(i));
    }
    return a;
  }

  /** ARGV starting with the pool count, as every partition script expects. */
  Args argv() {
    return new Args().add(pools);
  }

  String channel() {
    return keys.promoteChannel();
  }
}
