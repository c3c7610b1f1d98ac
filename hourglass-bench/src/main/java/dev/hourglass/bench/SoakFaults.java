package dev.hourglass.bench;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The soak's faults, drawn from {@code java.util.Random(seed)}: after a pause of 4 to 10 s, one of
 * a consumer SIGKILL (restarted after 0.5 to 2 s), a server SIGKILL (restarted at once) or one of
 * the topology's Redis faults ({@link SoakTopology#faultKinds()}). One fault at a time; each is
 * printed and kept with its start and end (the end is when the process is back, the failover done).
 */
final class SoakFaults implements Runnable {
  /** The faults of every topology, before the topology's own. */
  static final List<String> PROCESS_KINDS = List.of("consumer-kill", "server-kill");

  /** One fault: what, on which process, from when to when (epoch ms). */
  record Fault(String kind, String target, long startMs, long endMs) {}

  private final SoakProcesses processes;
  private final SoakTopology topology;
  private final List<String> kinds;
  private final Random random;
  private final PrintStream out;
  private final List<Fault> faults = new ArrayList<>();
  private volatile boolean running = true;

  private final SoakLedger log;

  /** Faults on these processes and topology, printed to {@code out} and appended to {@code log}. */
  SoakFaults(
      SoakProcesses processes, SoakTopology topology, long seed, PrintStream out, SoakLedger log) {
    this.processes = processes;
    this.topology = topology;
    this.kinds = kinds(topology);
    this.random = new Random(seed);
    this.out = out;
    this.log = log;
  }

  /** Every fault kind of a soak on {@code topology}, in the order the seed draws from. */
  static List<String> kinds(SoakTopology topology) {
    List<String> all = new ArrayList<>(PROCESS_KINDS);
    all.addAll(topology.faultKinds());
    return List.copyOf(all);
  }

  @Override
  public void run() {
    try {
      while (running) {
        sleep(4000 + random.nextInt(6001));
        if (!running) {
          return;
        }
        inject(kinds.get(random.nextInt(kinds.size())));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops drawing faults; a fault under way still ends (its process comes back). */
  void stop() {
    running = false;
  }

  synchronized List<Fault> faults() {
    return List.copyOf(faults);
  }

  private void inject(String kind) throws InterruptedException {
    long start = System.currentTimeMillis();
    String target =
        kind.startsWith("consumer") ? "consumer" : kind.startsWith("server") ? "server" : "redis";
    String failure = "";
    try {
      target = act(kind);
    } catch (RuntimeException e) {
      // What did not come back is restarted or replaced before the drain (ensureRunning).
      failure = " FAILED: " + e;
    }
    Fault fault = new Fault(kind, target, start, System.currentTimeMillis());
    synchronized (this) {
      faults.add(fault);
    }
    log.append(kind, target, fault.startMs(), fault.endMs());
    out.printf(
        "# fault %-13s %-16s %s .. %s (%d ms)%s%n",
        kind,
        target,
        Instant.ofEpochMilli(fault.startMs()),
        Instant.ofEpochMilli(fault.endMs()),
        fault.endMs() - fault.startMs(),
        failure);
    out.flush();
  }

  /** Injects a fault and returns its target. */
  private String act(String kind) throws InterruptedException {
    switch (kind) {
      case "consumer-kill" -> {
        // Drawn before acting, so that a fault that fails part-way leaves the schedule as it was.
        int consumer = random.nextInt(processes.consumerCount());
        long pauseMs = 500 + random.nextInt(1501);
        processes.killConsumer(consumer);
        sleep(pauseMs);
        processes.startConsumer(consumer);
        return processes.consumerName(consumer);
      }
      case "server-kill" -> {
        processes.killServer();
        processes.startServer();
        return "server";
      }
      default -> {
        return topology.inject(kind, random);
      }
    }
  }

  /** The pause between faults and inside a fault (a process's schedule, not a test's wait). */
  private static void sleep(long ms) throws InterruptedException {
    Thread.sleep(ms);
  }
}
