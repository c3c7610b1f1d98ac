package dev.hourglass.bench;

import dev.hourglass.DuplicateJobException;
import dev.hourglass.EnqueueResult;
import dev.hourglass.Hourglass;
import dev.hourglass.HourglassException;
import dev.hourglass.JobInfo;
import dev.hourglass.Queue;
import dev.hourglass.embedded.RedisServer;
import dev.hourglass.testing.topology.RedisSentinel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code hourglass-bench/run failover [--producers N] [--seconds S]}: replica-acknowledged writes
 * under a master failover, on a Sentinel group (1 master, 1 replica, 3 sentinels; {@link
 * RedisSentinel}). First the enqueue rate on a healthy group without and with the mode ({@code
 * replicaAcks(1, 1 s)}), N producer threads enqueueing one job at a time for S seconds. Then, per
 * mode on a fresh group: N producers enqueue; after S seconds the replica is stalled (SIGSTOP) for
 * L ms, a replica falling behind, then the master is SIGKILLed and the replica resumed; producers
 * keep going, retrying a failed enqueue with the same id (a duplicate counts as acknowledged); once
 * Sentinel promoted the replica, a new replica of the new master replaces the killed node (as an
 * orchestrator would); producers stop S seconds after the first enqueue that succeeded after the
 * kill. Then every acknowledged id is looked up on the new master. Prints {@code RESULT} lines:
 * rate per mode, and per mode acknowledged, lost, failed calls and time to recover (kill to the
 * first successful enqueue after it).
 */
final class FailoverBench {
  private static final String QUEUE = "failover";
  private static final int PAYLOAD_BYTES = 512;

  private FailoverBench() {}

  public static void main(String[] args) throws Exception {
    int producers = 16;
    int seconds = 5;
    int lagMs = 3000;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--producers" -> producers = Integer.parseInt(args[++i]);
        case "--seconds" -> seconds = Integer.parseInt(args[++i]);
        case "--lag-ms" -> lagMs = Integer.parseInt(args[++i]);
        case "--systems" -> {
          if (!args[++i].equals("hourglass")) {
            usage("the failover workload runs on hourglass only");
          }
        }
        default -> usage("unknown option " + args[i]);
      }
    }
    if (producers < 1 || seconds < 1 || lagMs < 0) {
      usage("--producers and --seconds must be at least 1, --lag-ms at least 0");
    }
    try (RedisSentinel group = group()) {
      healthyRate(group, 0, producers, seconds); // warm-up, unreported
      for (int replicas : new int[] {0, 1}) {
        double rate = healthyRate(group, replicas, producers, seconds);
        System.out.printf(
            "RESULT system=hourglass workload=failover phase=healthy replicaAcks=%d producers=%d"
                + " enqueues_per_s=%.0f%n",
            replicas, producers, rate);
      }
    }
    for (int replicas : new int[] {0, 1}) {
      try (RedisSentinel group = group()) {
        failover(group, replicas, producers, seconds, lagMs);
      }
    }
    System.out.println("RATIO workload=failover note=needs_both_systems");
    System.out.flush();
    System.exit(0); // client threads must not hold the JVM
  }

  private static void usage(String message) {
    System.err.println("hourglass-bench failover: " + message);
    System.err.println(
        "usage: hourglass-bench/run failover [--producers N] [--seconds S] [--lag-ms L]"
            + " [--systems hourglass]");
    System.exit(2);
  }

  private static Hourglass client(RedisSentinel group, int replicas) {
    return Hourglass.builder()
        .redisUri(group.sentinelUri())
        .replicaAcks(replicas, Duration.ofSeconds(1))
        .build();
  }

  private static double healthyRate(RedisSentinel group, int replicas, int producers, int seconds)
      throws Exception {
    try (Hourglass h = client(group, replicas)) {
      Queue<byte[]> q = h.queue(QUEUE + "-rate-" + replicas, byte[].class);
      q.enqueue(q.spec(new byte[PAYLOAD_BYTES]).build()); // connect and create the queue first
      AtomicLong done = new AtomicLong();
      long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < producers; t++) {
        threads.add(
            started(
                () -> {
                  while (System.nanoTime() < end) {
                    q.enqueue(q.spec(new byte[PAYLOAD_BYTES]).build());
                    done.incrementAndGet();
                  }
                }));
      }
      for (Thread t : threads) {
        t.join();
      }
      return done.get() / (double) seconds;
    }
  }

  private static void failover(
      RedisSentinel group, int replicas, int producers, int seconds, int lagMs) throws Exception {
    ConcurrentLinkedQueue<String> acked = new ConcurrentLinkedQueue<>();
    AtomicLong failures = new AtomicLong();
    AtomicLong killedAt = new AtomicLong();
    AtomicLong recoveredAt = new AtomicLong();
    AtomicBoolean stop = new AtomicBoolean();
    try (Hourglass h = client(group, replicas)) {
      Queue<byte[]> q = h.queue(QUEUE, byte[].class);
      q.stats(); // connect and create the queue first
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < producers; t++) {
        int thread = t;
        threads.add(
            started(
                () -> {
                  for (long seq = 0; !stop.get(); seq++) {
                    String id = "p" + thread + "-" + seq;
                    while (!stop.get()) {
                      long started = System.nanoTime();
                      if (enqueue(q, id)) {
                        acked.add(id);
                        long kill = killedAt.get();
                        if (kill != 0 && started > kill) {
                          recoveredAt.compareAndSet(0, System.nanoTime());
                        }
                        break;
                      }
                      failures.incrementAndGet();
                      pause(20); // do not spin while Redis is away
                    }
                  }
                }));
      }
      pause(seconds * 1000L);
      RedisServer master = group.master();
      RedisServer replica = group.dataNodes().get(1);
      // The replica falls lagMs behind (SIGSTOP), then the master dies (SIGKILL) and the replica
      // goes on (SIGCONT): what the master acknowledged in that window exists nowhere else.
      replica.pause();
      pause(lagMs);
      group.killMaster();
      killedAt.set(System.nanoTime());
      replica.resume();
      group.awaitFailover(master, Duration.ofMinutes(1));
      long promotedAt = System.nanoTime();
      // A new replica of the new master replaces the killed one (as an orchestrator would); an
      // empty master restarted on the old address could win back and wipe the data.
      group.addReplica();
      while (recoveredAt.get() == 0) {
        pause(50);
      }
      pause(seconds * 1000L);
      stop.set(true);
      for (Thread t : threads) {
        t.join();
      }
      long lost = countMissing(q, new ArrayList<>(acked));
      System.out.printf(
          "RESULT system=hourglass workload=failover phase=failover replicaAcks=%d producers=%d"
              + " replica_lag_ms=%d acknowledged=%d lost=%d failed_calls=%d promoted_ms=%d recover_ms=%d%n",
          replicas,
          producers,
          lagMs,
          acked.size(),
          lost,
          failures.get(),
          (promotedAt - killedAt.get()) / 1_000_000,
          (recoveredAt.get() - killedAt.get()) / 1_000_000);
    }
  }

  /**
   * A Sentinel group of one master, one replica and three sentinels (quorum 2), the master judged
   * down after 2 s, started.
   */
  private static RedisSentinel group() {
    RedisSentinel group = RedisSentinel.builder().downAfter(Duration.ofSeconds(2)).build();
    group.start();
    return group;
  }

  static void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Thread started(Runnable body) {
    Thread t = new Thread(body, "failover-producer");
    t.start();
    return t;
  }

  /** True when the job is in the queue now (created or a duplicate of an earlier attempt). */
  private static boolean enqueue(Queue<byte[]> q, String id) {
    try {
      EnqueueResult r =
          q.enqueue(q.spec(new byte[PAYLOAD_BYTES]).id(id).delay(Duration.ofHours(1)).build());
      return r != null;
    } catch (DuplicateJobException e) {
      return true;
    } catch (HourglassException e) {
      return false;
    }
  }

  private static long countMissing(Queue<byte[]> q, List<String> ids) throws Exception {
    long missing = 0;
    for (int from = 0; from < ids.size(); from += 1000) {
      List<CompletableFuture<Optional<JobInfo<byte[]>>>> reads = new ArrayList<>();
      for (String id : ids.subList(from, Math.min(ids.size(), from + 1000))) {
        reads.add(q.getAsync(id));
      }
      for (CompletableFuture<Optional<JobInfo<byte[]>>> r : reads) {
        if (r.get().isEmpty()) {
          missing++;
        }
      }
    }
    return missing;
  }
}
