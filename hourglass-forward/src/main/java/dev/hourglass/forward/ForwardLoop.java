package dev.hourglass.forward;

import dev.hourglass.Delivery;
import dev.hourglass.Nack;
import dev.hourglass.Queue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The forwarder's one loop: claims due jobs (a long poll, up to {@code concurrency} at once, while
 * the previous batch's publishes still await their confirms), publishes them in due order through
 * one {@link Publisher}, each when one of the {@code concurrency} publish slots is free, and
 * settles each when the broker has answered: ack when confirmed, nack by the job's backoff (reason
 * as last error) when not. After a broker failure it waits (reconnect backoff) before it claims
 * again, so jobs falling due meanwhile stay ready in Hourglass and spend no attempt.
 */
final class ForwardLoop<T> {
  private static final Logger log = LoggerFactory.getLogger(ForwardLoop.class);

  /**
   * Lease past the publish timeouts: a claimed job may wait up to one timeout for a publish slot,
   * then its publish another; a forwarder that dies mid-publish lets its jobs come back.
   */
  public static final Duration LEASE_MARGIN = Duration.ofSeconds(10);

  private static final Duration CLAIM_WAIT = Duration.ofSeconds(5);
  private static final Comparator<Delivery<?>> DUE_ORDER =
      Comparator.<Delivery<?>, java.time.Instant>comparing(Delivery::dueAt)
          .thenComparing(Delivery::id);

  private final Queue<T> queue;
  private final Publisher publisher;
  private final long timeoutMs;
  private final Duration visibility;
  private final ForwarderOptions options;
  private final Semaphore slots;
  private final Set<CompletableFuture<?>> settling = ConcurrentHashMap.newKeySet();
  private final Object pause = new Object();
  private final Thread thread;
  private volatile boolean stopping;
  private volatile CompletableFuture<List<Delivery<T>>> claim;
  private volatile String brokerFailure; // set by a settlement, taken by the loop
  private volatile boolean confirmedSinceFailure;
  private long backoffMs;

  ForwardLoop(Queue<T> queue, Target target, ForwarderOptions options) {
    this.queue = queue;
    this.publisher =
        target instanceof AmqpTarget a
            ? new AmqpPublisher(a, queue.name())
            : new KafkaPublisher((KafkaTarget) target, queue.name());
    this.timeoutMs = target.timeout().toMillis();
    this.visibility = target.timeout().multipliedBy(2).plus(LEASE_MARGIN);
    this.options = options;
    this.slots = new Semaphore(options.concurrency());
    this.backoffMs = options.reconnectMin().toMillis();
    this.thread = new Thread(this::run, "hourglass-forward-" + queue.name());
    this.thread.setDaemon(true);
  }

  public void start() {
    thread.start();
  }

  private void run() {
    while (!stopping) {
      try {
        round();
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        log.warn("forwarder of queue {}: {}", queue.name(), e.toString());
        waitBeforeRetry();
      }
    }
  }

  private void round() throws InterruptedException {
    String failure = brokerFailure;
    if (failure != null) {
      brokerFailure = null;
      publisher.close();
      log.warn("forwarder of queue {}: {}; retrying in {} ms", queue.name(), failure, backoffMs);
      waitBeforeRetry();
      return;
    }
    // Claims a whole batch while earlier publishes still await their confirms: the claim's round
    // trip overlaps them. Each job takes a publish slot only when it is published.
    List<Delivery<T>> jobs = claim(options.concurrency());
    if (jobs.isEmpty()) {
      return;
    }
    if (stopping) { // no new connection once close() has closed the publisher
      jobs.forEach(this::handBack);
      return;
    }
    jobs = new ArrayList<>(jobs);
    jobs.sort(DUE_ORDER);
    try {
      publisher.connect();
    } catch (PublishException e) {
      jobs.forEach(job -> settle(job, e));
      return;
    }
    for (Delivery<T> job : jobs) {
      boolean slot = takeSlot();
      String down = brokerFailure;
      if (!slot || down != null) {
        if (slot) {
          slots.release();
        }
        if (stopping) {
          handBack(job);
        } else {
          settle(job, new PublishException(down, false));
        }
        continue;
      }
      options.onPublished().accept(job);
      publisher
          .publish(job)
          .orTimeout(timeoutMs, TimeUnit.MILLISECONDS)
          .whenComplete(
              (ok, e) -> {
                settle(job, e);
                slots.release();
              });
    }
  }

  /** Waits for a free publish slot; false when the forwarder is stopping. */
  private boolean takeSlot() throws InterruptedException {
    while (!stopping) {
      if (slots.tryAcquire(100, TimeUnit.MILLISECONDS)) {
        return true;
      }
    }
    return false;
  }

  private List<Delivery<T>> claim(int max) throws InterruptedException {
    try {
      claim = queue.claimAsync(max, visibility, CLAIM_WAIT);
      if (stopping) {
        claim.cancel(false);
      }
      return claim.get();
    } catch (CancellationException e) {
      return List.of();
    } catch (ExecutionException e) {
      log.warn("forwarder of queue {}: claim failed: {}", queue.name(), e.getCause().toString());
      waitBeforeRetry();
      return List.of();
    }
  }

  /** Acks a confirmed job (null failure), nacks one the broker did not take. */
  private void settle(Delivery<T> job, Throwable failure) {
    CompletableFuture<?> done;
    if (failure == null) {
      confirmedSinceFailure = true;
      done = queue.ackAsync(job);
    } else {
      String reason = reason(failure);
      if (stopping && !(failure instanceof PublishException p && !p.brokerDown())) {
        // The forwarder closing cut the connection: the publish may or may not have arrived.
        done = queue.releaseAsync(job.id(), job.receipt());
      } else {
        Duration delay =
            job.backoff().delayAfter(job.attempt(), ThreadLocalRandom.current().nextDouble());
        done = queue.nackAsync(job, Nack.retryAfter(delay, reason));
      }
    }
    track(job, done);
  }

  /** A job claimed but never published: ready again at once, its attempt not counted. */
  private void handBack(Delivery<T> job) {
    track(job, queue.releaseAsync(job.id(), job.receipt()));
  }

  private void track(Delivery<T> job, CompletableFuture<?> done) {
    settling.add(done);
    done.whenComplete(
        (r, e) -> {
          settling.remove(done);
          if (e != null) {
            log.warn(
                "forwarder of queue {}: settling job {} failed: {}", queue.name(), job.id(), e);
          }
        });
  }

  private String reason(Throwable failure) {
    Throwable t =
        failure instanceof java.util.concurrent.CompletionException c ? c.getCause() : failure;
    if (t instanceof PublishException p) {
      if (p.brokerDown() && brokerFailure == null) {
        brokerFailure = p.reason();
      }
      return p.reason();
    }
    String reason =
        t instanceof TimeoutException ? ForwardFailures.timeout(timeoutMs) : String.valueOf(t);
    if (brokerFailure == null) {
      brokerFailure = reason; // a broker that does not answer in time: reconnect
    }
    return reason;
  }

  private void waitBeforeRetry() {
    if (confirmedSinceFailure) {
      confirmedSinceFailure = false;
      backoffMs = options.reconnectMin().toMillis();
    }
    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoffMs);
    synchronized (pause) {
      long left;
      while (!stopping && (left = until - System.nanoTime()) > 0) {
        try {
          TimeUnit.NANOSECONDS.timedWait(pause, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
    backoffMs = Math.min(backoffMs * 2, options.reconnectMax().toMillis());
  }

  /**
   * Stops claiming, waits up to {@code timeout} for the publishes in flight and their settlements,
   * then closes the connection (what is still unconfirmed goes back ready).
   */
  public void stop(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    stopping = true;
    synchronized (pause) {
      pause.notifyAll();
    }
    CompletableFuture<?> c = claim;
    if (c != null) {
      c.cancel(false);
    }
    try {
      thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      if (slots.tryAcquire(
          options.concurrency(), Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
        slots.release(options.concurrency());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    publisher.close();
    try {
      CompletableFuture.allOf(settling.toArray(CompletableFuture[]::new))
          .get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      log.warn("forwarder of queue {}: settlements unfinished at close: {}", queue.name(), e);
    }
  }
}
