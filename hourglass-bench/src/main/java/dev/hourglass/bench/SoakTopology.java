package dev.hourglass.bench;

import dev.hourglass.QueueSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

/**
 * The Redis side of a soak: how it starts, the URIs clients use, the Redis faults it can take, and
 * how it comes back. The consumer and server faults are the soak's own ({@link SoakFaults}).
 */
interface SoakTopology extends AutoCloseable {
  /** The topologies {@code --topology} takes. */
  List<String> NAMES = List.of("standalone", "sentinel", "cluster");

  /** A stopped topology named {@code name}; {@code aof} gives its data nodes AOF always. */
  static SoakTopology of(String name, Path dir, boolean aof) {
    return switch (name) {
      case "standalone" -> new StandaloneTopology(dir, aof);
      case "sentinel" -> new SentinelTopology(aof);
      case "cluster" -> new ClusterTopology();
      default -> throw new IllegalArgumentException("unknown topology " + name);
    };
  }

  String name();

  /** Starts every node and waits until clients can use it. */
  void start();

  /** The Redis URI of the server and consumer JVMs (through a fault proxy where there is one). */
  String clientUri();

  /** The Redis URI of the producer in the harness's JVM. */
  String producerUri();

  /** One line for the output: the nodes, their persistence, what the queue is configured with. */
  String describe();

  /**
   * The soak queue's settings (applied once before the run), or null for the defaults. Topologies
   * with replicas turn replica-acknowledged writes on, so that a failover loses no acknowledged
   * enqueue.
   */
  QueueSettings queueSettings();

  /** The Redis fault kinds this topology takes, in the order the seed draws from. */
  List<String> faultKinds();

  /**
   * Draws the parameters of a fault of {@code kind} from {@code random} (all of them before acting,
   * so that a fault failing part-way leaves the schedule as it was), injects it, and returns once
   * it is over (the node back, the failover done and its replacement in sync).
   *
   * @return the fault's target, for the fault log
   */
  String inject(String kind, Random random) throws InterruptedException;

  /** Restarts or replaces whatever a fault left down (after the faults stopped). */
  void ensureRunning();

  @Override
  void close();

  /** The pause inside a fault (a fault's schedule, not a test's wait). */
  static void sleep(long ms) throws InterruptedException {
    Thread.sleep(ms);
  }

  /** Lets a fault already begun last {@code ms}, then ends it with {@code end}, come what may. */
  static void hold(long ms, Runnable end) throws InterruptedException {
    try {
      sleep(ms);
    } finally {
      end.run();
    }
  }
}
