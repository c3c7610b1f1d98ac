package dev.hourglass.testing.topology;

import dev.hourglass.embedded.RedisServer;
import dev.hourglass.embedded.RedisServerException;
import java.util.ArrayList;
import java.util.List;

/**
 * Which master serves which slots, as one running node's {@code CLUSTER NODES} tells at the moment
 * it is read. Slots being imported or migrated count for their current owner only.
 */
final class SlotOwners {

  /** A master's line: its address ({@code host:port@bus}) and slot ranges, {from, to}. */
  private record Master(String address, List<int[]> ranges) {}

  private final List<Master> masters;
  private final List<RedisServer> nodes;

  private SlotOwners(List<Master> masters, List<RedisServer> nodes) {
    this.masters = masters;
    this.nodes = nodes;
  }

  /**
   * Reads {@code CLUSTER NODES} from the first running node of {@code nodes}, which must hold every
   * node the answer may name.
   */
  static SlotOwners read(List<RedisServer> nodes) {
    RedisServer running = nodes.stream().filter(RedisServer::isRunning).findFirst().orElseThrow();
    List<Master> masters = new ArrayList<>();
    for (String line : running.command("CLUSTER", "NODES").split("\n")) {
      String[] fields = line.strip().split(" ");
      if (fields.length >= 8 && fields[2].contains("master")) {
        masters.add(new Master(fields[1], ranges(fields)));
      }
    }
    return new SlotOwners(masters, nodes);
  }

  /**
   * The master that serves {@code slot}.
   *
   * @throws RedisServerException if none does
   */
  RedisServer masterOf(int slot) {
    for (Master master : masters) {
      for (int[] range : master.ranges()) {
        if (slot >= range[0] && slot <= range[1]) {
          return byAddress(master.address());
        }
      }
    }
    throw new RedisServerException("no master serves slot " + slot);
  }

  /**
   * The first slot {@code node} serves.
   *
   * @throws IllegalArgumentException if it serves none
   */
  int firstSlotOf(RedisServer node) {
    for (Master master : masters) {
      if (byAddress(master.address()) == node && !master.ranges().isEmpty()) {
        return master.ranges().get(0)[0];
      }
    }
    throw new IllegalArgumentException(node + " serves no slot");
  }

  /** The slot ranges of a {@code CLUSTER NODES} line, {from, to}; slots moving are left out. */
  private static List<int[]> ranges(String[] fields) {
    List<int[]> ranges = new ArrayList<>();
    for (int i = 8; i < fields.length; i++) {
      if (!fields[i].startsWith("[")) { // "[slot->-id]": a slot being imported or migrated
        String[] range = fields[i].split("-");
        int from = Integer.parseInt(range[0]);
        ranges.add(new int[] {from, range.length > 1 ? Integer.parseInt(range[1]) : from});
      }
    }
    return ranges;
  }

  private RedisServer byAddress(String address) {
    String hostPort = address.split("@")[0];
    for (RedisServer node : nodes) {
      if (hostPort.equals(node.host() + ":" + node.port())) {
        return node;
      }
    }
    throw new RedisServerException("unknown node " + address);
  }
}
