package dev.hourglass.internal;

import dev.hourglass.Delivery;
import dev.hourglass.HourglassException;
import io.lettuce.core.RedisException;
import io.lettuce.core.api.StatefulRedisConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The claim loop of a worker on one partition. It claims as many jobs as the worker has free
 * handler slots; when a claim comes back short, the partition has nothing ready, so it blocks on
 * the partition's wake list (BLPOP, on a connection of its own) until a producer or promoter pushes
 * a token or {@code idleWait} passes. It never spins.
 */
final class ClaimLoop implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(ClaimLoop.class);
  private static final long MAX_FAILURE_BACKOFF_MS = 2000;

  private final HourglassClient client;
  private final RedisQueue queue;
  private final PartitionRef part;
  private final WorkerImpl worker;
  private final Thread thread;
  private final byte[] wakeKey;
  private volatile StatefulRedisConnection<byte[], byte[]> blocking;

  ClaimLoop(HourglassClient client, RedisQueue queue, PartitionRef part, WorkerImpl worker) {
    this.client = client;
    this.queue = queue;
    this.part = part;
    this.worker = worker;
    this.wakeKey = part.keys.wake().getBytes(StandardCharsets.UTF_8);
    this.thread = new Thread(this, "hourglass-claim-" + queue.name() + "." + part.index);
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  @Override
  public void run() {
    long failureBackoff = 50;
    while (worker.running()) {
      int slots;
      try {
        slots = worker.acquireSlots(worker.options().maxClaim());
      } catch (InterruptedException e) {
        return;
      }
      List<Delivery> got;
      try {
        // Not interruptible: once the script ran, its leases must reach a handler or be handed
        // back.
        got =
            Failures.awaitUninterruptibly(
                queue.claimAsync(part, slots, worker.options().visibility()));
        failureBackoff = 50;
      } catch (HourglassException e) {
        worker.releaseSlots(slots);
        if (!worker.running()) {
          return;
        }
        log.warn(
            "claim from {} failed, retrying in {} ms: {}",
            queue.name(),
            failureBackoff,
            e.getMessage());
        pause(failureBackoff);
        failureBackoff = Math.min(failureBackoff * 2, MAX_FAILURE_BACKOFF_MS);
        continue;
      }
      worker.releaseSlots(slots - got.size());
      if (!worker.running()) {
        got.forEach(worker::handBack); // closing: start nothing new, return the leases at once
        worker.releaseSlots(got.size());
        return;
      }
      for (Delivery d : got) {
        worker.dispatch(d);
      }
      if (got.size() < slots && worker.running()) {
        awaitWake();
      }
    }
  }

  /**
   * Blocks until a wake token arrives or idleWait passes. Failures end the wait early; the claim
   * retries.
   */
  private void awaitWake() {
    Duration idle = worker.options().idleWait();
    try {
      StatefulRedisConnection<byte[], byte[]> c = blocking;
      if (c == null || !c.isOpen()) {
        c = client.redis.openDedicated(idle.plus(client.redis.commandTimeout()));
        blocking = c;
        if (!worker.running()) {
          c.close();
          return;
        }
      }
      c.sync().blpop(idle.toMillis() / 1000.0, wakeKey);
    } catch (HourglassException | RedisException e) {
      if (worker.running()) {
        log.debug("wait for wake-up on {} ended early: {}", queue.name(), e.getMessage());
        pause(100);
      }
    }
  }

  private void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Stops the loop: closes the blocking connection to end a BLPOP in progress, then waits for the
   * thread.
   */
  void stop() {
    StatefulRedisConnection<byte[], byte[]> c = blocking;
    if (c != null) {
      c.closeAsync();
    }
    thread.interrupt();
    try {
      thread.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    c = blocking;
    if (c != null && c.isOpen()) {
      c.close();
    }
  }
}
