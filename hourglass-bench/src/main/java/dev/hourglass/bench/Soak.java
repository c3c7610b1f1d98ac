package dev.hourglass.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * {@code hourglass-bench/run soak --minutes M --seed S [--topology standalone|sentinel|cluster]
 * [--rate R] [--consumers N] [--drain-timeout-s T] [--aof always|off] [--dir DIR]}: producers,
 * consumers in JVMs of their own and the server run against a Redis topology ({@link SoakTopology})
 * for M minutes while faults drawn from the seed hit them ({@link SoakFaults}); then the faults
 * stop, everything drains, and the ledger ({@link SoakLedger}) gives the verdict ({@link
 * SoakVerdict}): a table and one {@code SOAK {json}} line. Exit code 0 when nothing was lost, early
 * or delivered after its cancel; 1 otherwise; 2 for a bad command line.
 */
public final class Soak {
  static final String USAGE =
      """
      usage: hourglass-bench/run soak --minutes M --seed S [--topology T] [--rate R]
                                      [--consumers N] [--drain-timeout-s T] [--aof always|off]
                                [--dir DIR]
        --minutes M          minutes of faults (a decimal fraction is fine), required
        --seed S             seeds the faults, the delays and the cancels, required
        --topology T         standalone (default): one Redis; the server and consumer JVMs reach
                               it through a TCP fault proxy. Faults: consumer and server SIGKILL,
                               Redis SIGKILL and stall, proxy drop, stall, latency spike and
                               one-direction cut
                             sentinel: a master, 2 replicas, 3 sentinels; the queue has replica-
                               acknowledged writes (replicaAcks 1). Faults: consumer and server
                               SIGKILL, master SIGKILL (failover, then a replacement replica),
                               replica SIGKILL (replaced), sentinel SIGKILL (restarted), stalls
                             cluster: 3 masters with a replica each (in memory: the fixture has
                               no AOF); the queue has 3 partitions and replicaAcks 1. Faults:
                               consumer and server SIGKILL, master SIGKILL (replica promoted,
                               then a replacement replica), replica SIGKILL (replaced), master
                               stall, a partition's slot migrated to another master
                             'lost' must be 0 in every topology: standalone by its AOF, sentinel
                             and cluster by replicaAcks (a failover loses no acknowledged write)
        --rate R             enqueues per second, 3/4 through the library, 1/4 over HTTP (default 40)
        --consumers N        consumer JVMs: N-1 library Workers and one HTTP long-poll consumer
                             (default 3, at least 2)
        --drain-timeout-s T  after the faults, how long to wait for every due job (default 120)
        --aof always|off     Redis's AOF: always (appendfsync always, the default) or off, which
                             loses what a Redis kill hits: a check that the verdict catches losses
                             (standalone and sentinel; the cluster's nodes have no AOF)
        --dir DIR            where the ledger, fault log and process output go (default: a new
                             directory under the system's temporary directory)
      """;

  private Soak() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> o;
    try {
      o = SoakOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("hourglass-bench soak: " + e.getMessage());
      System.err.print(USAGE);
      System.exit(2);
      return;
    }
    if (o.containsKey("help")) {
      System.out.print(USAGE);
      System.exit(0);
    }
    int code;
    try {
      code = run(o, System.out) ? 0 : 1;
    } catch (Exception e) {
      e.printStackTrace();
      code = 1;
    }
    System.out.flush();
    System.exit(code);
  }

  static boolean run(Map<String, String> o, PrintStream out) throws Exception {
    double minutes = Double.parseDouble(o.get("minutes"));
    long seed = Long.parseLong(o.get("seed"));
    double rate = Double.parseDouble(o.getOrDefault("rate", "40"));
    int consumers = Integer.parseInt(o.getOrDefault("consumers", "3"));
    boolean aof = o.getOrDefault("aof", "always").equals("always");
    long drainMs = Long.parseLong(o.getOrDefault("drain-timeout-s", "120")) * 1000;
    Path dir =
        o.containsKey("dir")
            ? Files.createDirectories(Path.of(o.get("dir")))
            : Files.createTempDirectory("hourglass-soak-" + seed + "-");
    String topologyName = o.getOrDefault("topology", "standalone");
    out.printf(
        "# hourglass soak: topology=%s minutes=%s seed=%d rate=%s consumers=%d (%d library,"
            + " 1 http) dir=%s; %d cores%n",
        topologyName,
        o.get("minutes"),
        seed,
        rate,
        consumers,
        consumers - 1,
        dir,
        Runtime.getRuntime().availableProcessors());
    SoakTopology topology = SoakTopology.of(topologyName, dir, aof);
    try (SoakProcesses processes = new SoakProcesses(dir, topology, consumers - 1, 1);
        SoakLedger ledger = new SoakLedger(dir.resolve("producer.ledger"));
        SoakLedger faultLog = new SoakLedger(dir.resolve("faults.log"))) {
      processes.start();
      out.println("# " + topology.describe() + "; server " + processes.serverUrl());
      SoakFaults faults = new SoakFaults(processes, topology, seed, out, faultLog);
      Thread faulting = new Thread(faults, "soak-faults");
      try (SoakProducer producer =
          new SoakProducer(topology.producerUri(), processes.serverUrl(), ledger, seed, rate)) {
        producer.start();
        faulting.start();
        Thread.sleep((long) (minutes * 60_000));
        faults.stop();
        faulting.join();
        producer.stop();
        out.println("# faults stopped at " + Instant.now() + "; producers stopped; draining");
        processes.ensureRunning();
        drain(dir, faults, drainMs, out);
      }
      SoakVerdict verdict =
          new SoakVerdict(SoakLedger.read(dir), faults.faults(), SoakFaults.kinds(topology));
      Map<String, Object> figures = verdict.figures();
      boolean passed = SoakVerdict.passed(figures);
      figures.put("verdict", passed ? "pass" : "FAIL");
      for (Map.Entry<String, Object> e : figures.entrySet()) {
        out.printf("%-32s %s%n", e.getKey(), e.getValue());
      }
      figures.put("topology", topologyName);
      figures.put("aof", topologyName.equals("cluster") ? "none" : aof ? "always" : "off");
      figures.put(
          "replica_acks",
          topology.queueSettings() == null ? 0 : topology.queueSettings().replicaAcks().orElse(0));
      figures.put("minutes", minutes);
      figures.put("seed", seed);
      out.println("SOAK " + new ObjectMapper().writeValueAsString(figures));
      return passed;
    }
  }

  /** Waits until every acknowledged, uncancelled job that is due has a delivery, or the timeout. */
  private static void drain(Path dir, SoakFaults faults, long timeoutMs, PrintStream out)
      throws Exception {
    long deadline = System.currentTimeMillis() + timeoutMs;
    long owed;
    do {
      Thread.sleep(1000);
      // Jobs due after the producers stopped are at most 10 s away: wait for all of them.
      owed = new SoakVerdict(SoakLedger.read(dir), faults.faults()).owed(Long.MAX_VALUE);
    } while (owed > 0 && System.currentTimeMillis() < deadline);
    out.println(
        "# drained at "
            + Instant.now()
            + (owed > 0
                ? "; timed out after " + Duration.ofMillis(timeoutMs) + " with " + owed + " owed"
                : ""));
    Thread.sleep(SoakConsumer.VISIBILITY.toMillis()); // late duplicates show up in the verdict
  }
}
