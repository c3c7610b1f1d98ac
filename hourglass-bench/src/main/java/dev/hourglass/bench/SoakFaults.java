package dev.hourglass.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The soak's faults, drawn from {@code java.util.Random(seed)}: after a pause of 4 to 10 s, one of
 * a consumer SIGKILL (restarted after 0.5 to 2 s), a server SIGKILL (restarted at once), a Redis
 * SIGKILL (restarted after 0.5 to 2 s) or a Redis stall (SIGSTOP, SIGCONT after 1 to 3 s). One
 * fault at a time; each is printed and kept with its start and end (the end is when the process is
 * back).
 */
final class SoakFaults implements Runnable {
  static final List<String> KINDS =
      List.of("consumer-kill", "server-kill", "redis-kill", "redis-stall");

  /** One fault: what, on which process, from when to when (epoch ms). */
  record Fault(String kind, String target, long startMs, long endMs) {}

  private final SoakProcesses processes;
  private final Random random;
  private final PrintStream out;
  private final List<Fault> faults = new ArrayList<>();
  private volatile boolean running = true;

  private final SoakLedger log;

  /** Faults on these processes, printed to {@code out} and appended to {@code log}. */
  SoakFaults(SoakProcesses processes, long seed, PrintStream out, SoakLedger log) {
    this.processes = processes;
    this.random = new Random(seed);
    this.out = out;
    this.log = log;
  }

  @Override
  public void run() {
    try {
      while (running) {
        sleep(4000 + random.nextInt(6001));
        if (!running) {
          return;
        }
        inject(KINDS.get(random.nextInt(KINDS.size())));
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
    // Drawn before acting, so that a fault that fails part-way leaves the schedule as it was.
    int consumer = random.nextInt(processes.consumerCount());
    long pauseMs =
        kind.equals("redis-stall") ? 1000 + random.nextInt(2001) : 500 + random.nextInt(1501);
    String target =
        switch (kind) {
          case "consumer-kill" -> processes.consumerName(consumer);
          case "server-kill" -> "server";
          default -> "redis";
        };
    long start = System.currentTimeMillis();
    String failure = "";
    try {
      act(kind, consumer, pauseMs);
    } catch (RuntimeException e) {
      // A process that did not come back is restarted before the drain (ensureRunning).
      failure = " FAILED: " + e;
    }
    Fault fault = new Fault(kind, target, start, System.currentTimeMillis());
    synchronized (this) {
      faults.add(fault);
    }
    log.append(kind, target, fault.startMs(), fault.endMs());
    out.printf(
        "# fault %-13s %-12s %s .. %s (%d ms)%s%n",
        kind,
        target,
        Instant.ofEpochMilli(fault.startMs()),
        Instant.ofEpochMilli(fault.endMs()),
        fault.endMs() - fault.startMs(),
        failure);
    out.flush();
  }

  private void act(String kind, int consumer, long pauseMs) throws InterruptedException {
    switch (kind) {
      case "consumer-kill" -> {
        processes.killConsumer(consumer);
        sleep(pauseMs);
        processes.startConsumer(consumer);
      }
      case "server-kill" -> {
        processes.killServer();
        processes.startServer();
      }
      case "redis-kill" -> {
        processes.killRedis();
        sleep(pauseMs);
        processes.startRedis();
      }
      case "redis-stall" -> {
        long pid = processes.redisPid();
        signal("STOP", pid);
        try {
          sleep(pauseMs);
        } finally {
          signal("CONT", pid);
        }
      }
      default -> throw new IllegalArgumentException(kind);
    }
  }

  private static void signal(String signal, long pid) throws InterruptedException {
    try {
      int code = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start().waitFor();
      if (code != 0) {
        throw new IllegalStateException("kill -" + signal + " " + pid + " exited with " + code);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run kill -" + signal, e);
    }
  }

  /** The pause between faults and inside a fault (a process's schedule, not a test's wait). */
  private static void sleep(long ms) throws InterruptedException {
    Thread.sleep(ms);
  }
}
