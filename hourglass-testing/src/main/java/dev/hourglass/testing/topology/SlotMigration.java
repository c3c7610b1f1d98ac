package dev.hourglass.testing.topology;

import dev.hourglass.embedded.RedisServer;
import java.util.ArrayList;
import java.util.List;

/**
 * One hash slot moving from one master to another, the way {@code redis-cli --cluster reshard}
 * moves it, in steps a test can interleave with traffic ({@link RedisCluster#migrateSlot}):
 *
 * <ol>
 *   <li>begun: the target imports the slot ({@code CLUSTER SETSLOT slot IMPORTING source}) and the
 *       source migrates it ({@code SETSLOT slot MIGRATING target}). The source still serves keys it
 *       holds and answers {@code ASK} for keys it does not; a command on several keys of which some
 *       have moved gets {@code TRYAGAIN};
 *   <li>{@link #moveKeys(int)}: up to n keys move with {@code MIGRATE} (atomically each);
 *   <li>{@link #finish()}: the rest move, then every master learns the new owner ({@code SETSLOT
 *       slot NODE target}), and the source answers {@code MOVED}.
 * </ol>
 *
 * <p>Not thread-safe; one thread drives a migration.
 */
public final class SlotMigration {
  private static final int MIGRATE_TIMEOUT_MS = 5000;

  private final int slot;
  private final RedisServer source;
  private final RedisServer target;
  private final List<RedisServer> masters;
  private final String targetId;
  private boolean finished;

  private SlotMigration(
      int slot, RedisServer source, RedisServer target, List<RedisServer> masters, String id) {
    this.slot = slot;
    this.source = source;
    this.target = target;
    this.masters = List.copyOf(masters);
    this.targetId = id;
  }

  /**
   * Marks {@code slot} as importing on {@code target} and migrating on {@code source}; {@code
   * masters} learn the new owner at {@link #finish()}.
   */
  static SlotMigration begin(
      int slot, RedisServer source, RedisServer target, List<RedisServer> masters) {
    String s = Integer.toString(slot);
    String targetId = ClusterNodes.nodeId(target);
    target.command("CLUSTER", "SETSLOT", s, "IMPORTING", ClusterNodes.nodeId(source));
    source.command("CLUSTER", "SETSLOT", s, "MIGRATING", targetId);
    return new SlotMigration(slot, source, target, masters, targetId);
  }

  /**
   * The slot that moves.
   *
   * @return 0 to 16383
   */
  public int slot() {
    return slot;
  }

  /**
   * The master the slot moves from.
   *
   * @return the source master
   */
  public RedisServer source() {
    return source;
  }

  /**
   * The master the slot moves to.
   *
   * @return the target master
   */
  public RedisServer target() {
    return target;
  }

  /**
   * Moves up to {@code count} of the keys the source still holds in the slot.
   *
   * @param count at least 1
   * @return how many moved; 0 when the source holds none
   */
  public int moveKeys(int count) {
    if (finished) {
      throw new IllegalStateException("slot " + slot + " has already moved");
    }
    String keys =
        source.command("CLUSTER", "GETKEYSINSLOT", Integer.toString(slot), Integer.toString(count));
    if (keys == null || keys.isEmpty()) {
      return 0;
    }
    List<String> args =
        new ArrayList<>(
            List.of(
                "MIGRATE",
                target.host(),
                Integer.toString(target.port()),
                "",
                "0",
                Integer.toString(MIGRATE_TIMEOUT_MS),
                "KEYS"));
    List<String> moving = List.of(keys.split("\n"));
    args.addAll(moving);
    source.command(args.toArray(new String[0]));
    return moving.size();
  }

  /** Moves the keys left, then hands the slot to the target on every master. */
  public void finish() {
    while (moveKeys(100) > 0) {
      // until the source holds none of the slot's keys
    }
    String s = Integer.toString(slot);
    target.command("CLUSTER", "SETSLOT", s, "NODE", targetId);
    source.command("CLUSTER", "SETSLOT", s, "NODE", targetId);
    for (RedisServer master : masters) {
      if (master != source && master != target) {
        master.command("CLUSTER", "SETSLOT", s, "NODE", targetId);
      }
    }
    finished = true;
  }
}
