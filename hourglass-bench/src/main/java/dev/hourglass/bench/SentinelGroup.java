package dev.hourglass.bench;

import dev.hourglass.embedded.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A Sentinel group for the failover workload: one master, one replica and three sentinels (quorum
 * 2, master down after 2 s), all embedded {@code redis-server} processes on free ports.
 */
final class SentinelGroup implements AutoCloseable {
  static final String MASTER_NAME = "mymaster";
  private static final String HOST = "127.0.0.1";
  private static final Duration READY = Duration.ofSeconds(30);

  final RedisServer master = RedisServer.builder().build();
  final RedisServer replica;
  final List<RedisServer> sentinels = new ArrayList<>();
  private final List<RedisServer> added = new ArrayList<>();

  SentinelGroup() {
    master.start();
    replica = RedisServer.builder().args("--replicaof", HOST, "" + master.port()).build();
    replica.start();
    for (int i = 0; i < 3; i++) {
      RedisServer s =
          RedisServer.builder()
              .configFile(
                  "sentinel.conf",
                  "sentinel monitor "
                      + MASTER_NAME
                      + " "
                      + HOST
                      + " "
                      + master.port()
                      + " 2\n"
                      + "sentinel down-after-milliseconds "
                      + MASTER_NAME
                      + " 2000\n"
                      + "sentinel failover-timeout "
                      + MASTER_NAME
                      + " 10000\n")
              .args("--sentinel")
              .build();
      s.start();
      sentinels.add(s);
    }
    awaitReady();
  }

  /** Until the replica is in sync and every sentinel knows the replica and the two others. */
  private void awaitReady() {
    long deadline = System.nanoTime() + READY.toNanos();
    while (true) {
      boolean ready = replica.command("INFO", "replication").contains("master_link_status:up");
      for (RedisServer s : sentinels) {
        String info = s.command("INFO", "sentinel");
        ready &= info.contains("slaves=1,sentinels=3");
      }
      if (ready) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the sentinel group did not form within " + READY);
      }
      pause(100);
    }
  }

  /** Starts a new replica of the master on {@code masterPort}. */
  void addReplica(int masterPort) {
    RedisServer r = RedisServer.builder().args("--replicaof", HOST, "" + masterPort).build();
    added.add(r);
    r.start();
  }

  /** {@code redis-sentinel://host:p1,host:p2,host:p3#mymaster}. */
  String uri() {
    StringBuilder b = new StringBuilder("redis-sentinel://");
    for (int i = 0; i < sentinels.size(); i++) {
      b.append(i > 0 ? "," : "").append(HOST).append(':').append(sentinels.get(i).port());
    }
    return b.append('#').append(MASTER_NAME).toString();
  }

  /** The port the first sentinel answers for the master now. */
  int masterPort() {
    String addr = sentinels.get(0).command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME);
    return Integer.parseInt(addr.strip().split("\n")[1].strip());
  }

  static void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    sentinels.forEach(RedisServer::close);
    added.forEach(RedisServer::close);
    replica.close();
    master.close();
  }
}
