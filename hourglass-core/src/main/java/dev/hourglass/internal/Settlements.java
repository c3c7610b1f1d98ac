package dev.hourglass.internal;

import dev.hourglass.Backoff;
import dev.hourglass.Delivery;
import dev.hourglass.HourglassBuilder;
import dev.hourglass.JobNotFoundException;
import dev.hourglass.NackResult;
import dev.hourglass.StaleReceiptException;
import dev.hourglass.internal.QueueTopology.Snapshot;
import dev.hourglass.internal.store.Deliveries;
import dev.hourglass.internal.store.Deliveries.Receipt;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.ServerClock;
import dev.hourglass.internal.store.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How one queue's deliveries end or last: ack (concurrent acks of one partition share script calls,
 * {@link CallBatcher}), nack, extend, release. Each checks the delivery's receipt in its script.
 */
final class Settlements {
  private static final int ACK_BATCH = 500;

  private static final Logger log = LoggerFactory.getLogger(Settlements.class);

  private final String queue;
  private final QueueTopology topology;
  private final Deliveries deliveries;
  private final ServerClock clock;
  private final HourglassBuilder.Config config;
  private final Executor callbacks;
  private final JobLocator locator;

  /** Per partition, keyed by the partition itself (see {@code Enqueues}'s batchers). */
  private final Map<Partition, CallBatcher<Receipt, Void>> ackBatchers = new ConcurrentHashMap<>();

  Settlements(
      QueueTopology topology,
      Deliveries deliveries,
      ServerClock clock,
      HourglassBuilder.Config config,
      Executor callbacks,
      JobLocator locator) {
    this.locator = locator;
    this.queue = topology.name();
    this.topology = topology;
    this.deliveries = deliveries;
    this.clock = clock;
    this.config = config;
    this.callbacks = callbacks;
  }

  CompletableFuture<Void> ack(String id, String receipt) {
    Names.id(id);
    Names.receipt(receipt);
    return ackChecked(id, receipt);
  }

  /**
   * {@link #ack} of an id and receipt known to be well-formed (a worker's own delivery). With the
   * settings copy current and the partition known without a lookup, the usual case, the ack goes
   * straight to its partition's batcher, with no future in between.
   */
  CompletableFuture<Void> ackChecked(String id, String receipt) {
    Snapshot now = topology.fresh();
    Partition known = now == null ? null : locator.withoutLookup(now, id);
    if (known != null) {
      return ackIn(now, known, new Receipt(id, receipt));
    }
    return topology
        .snapshotAsync()
        .thenCompose(
            s ->
                locator
                    .locate(s, id)
                    .thenCompose(part -> ackIn(s, part, new Receipt(id, receipt))));
  }

  private CompletableFuture<Void> ackIn(Snapshot s, Partition part, Receipt r) {
    CallBatcher<Receipt, Void> batcher = ackBatchers.get(part);
    if (batcher == null) {
      batcher =
          ackBatchers.computeIfAbsent(
              part,
              k ->
                  new CallBatcher<Receipt, Void>(
                      acks -> sendAcks(part, acks),
                      callbacks,
                      ACK_BATCH,
                      s.inFlightPerPartition(CallBatcher.MAX_IN_FLIGHT)));
    }
    return batcher.submit(r);
  }

  /** One ack script call; per delivery null (acked) or the refusal. */
  private CompletableFuture<List<Object>> sendAcks(Partition part, List<Receipt> acks) {
    return deliveries
        .ack(part, acks, config.replicaAcksFor(topology.cached().settings()))
        .thenApply(
            statuses -> {
              List<Object> out = new ArrayList<>(acks.size());
              for (int i = 0; i < acks.size(); i++) {
                out.add(refusal(statuses.get(i), acks.get(i).id()));
              }
              return out;
            });
  }

  /** The delay before retry {@code failedAttempt + 1} by the backoff, with its random jitter. */
  static long backoffDelay(Backoff backoff, int failedAttempt) {
    return backoff.delayAfter(failedAttempt, ThreadLocalRandom.current().nextDouble()).toMillis();
  }

  CompletableFuture<NackResult> nack(
      String id, String receipt, String error, long delayMs, boolean kill) {
    Snapshot s = topology.cached();
    long slotStart = s.slotStart(clock.nowMs() + delayMs);
    String text = LastErrors.oneLine(error); // a last error is one line of at most 1,000 characters
    return locator
        .locate(s, id)
        .thenCompose(
            part ->
                deliveries.nack(
                    part,
                    new Receipt(id, receipt),
                    text,
                    delayMs,
                    kill,
                    slotStart,
                    s.lookaheadMs(),
                    config.replicaAcksFor(s.settings())))
        .thenApply(
            r -> {
              check(r.status(), id);
              return new NackResult(r.dead(), Instant.ofEpochMilli(r.atMs()));
            });
  }

  CompletableFuture<Instant> extend(String id, String receipt, long visibilityMs) {
    return locator
        .locate(topology.cached(), id)
        .thenCompose(part -> deliveries.extend(part, new Receipt(id, receipt), visibilityMs))
        .thenApply(
            r -> {
              check(r.status(), id);
              return Instant.ofEpochMilli(r.leaseUntilMs());
            });
  }

  /**
   * Hands back deliveries whose claim was given up before they reached anyone: ready again at once,
   * the attempt not counted. A failure leaves them to their lease.
   */
  void handBack(List<Delivery<byte[]>> got) {
    for (Delivery<byte[]> d : got) {
      release(d.id(), d.receipt())
          .whenComplete(
              (ok, error) -> {
                if (error != null) {
                  log.debug(
                      "job {} in {} comes back by its lease: {}", d.id(), queue, error.toString());
                }
              });
    }
  }

  /** Hands back a delivery that was never started: ready again, the attempt not counted. */
  CompletableFuture<Void> release(String id, String receipt) {
    return locator
        .locate(topology.cached(), id)
        .thenCompose(part -> deliveries.release(part, new Receipt(id, receipt)))
        .thenAccept(status -> check(status, id));
  }

  private void check(Status status, String id) {
    RuntimeException refused = refusal(status, id);
    if (refused != null) {
      throw refused;
    }
  }

  /** The exception for a lease-checked script's status, or null for ok. */
  private RuntimeException refusal(Status status, String id) {
    return switch (status) {
      case OK -> null;
      case STALE_RECEIPT -> new StaleReceiptException(queue, id);
      case NOT_FOUND -> new JobNotFoundException(queue, id);
      default -> new IllegalStateException("unexpected status " + status + " for queue " + queue);
    };
  }
}
