package dev.hourglass.internal;

import dev.hourglass.Backoff;
import dev.hourglass.Delivery;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobInfo;
import dev.hourglass.JobNotFoundException;
import dev.hourglass.JobSpec;
import dev.hourglass.JobState;
import dev.hourglass.JobStateException;
import dev.hourglass.Nack;
import dev.hourglass.NackResult;
import dev.hourglass.QueueSettings;
import dev.hourglass.QueueStats;
import dev.hourglass.internal.QueueTopology.Snapshot;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.RecordCodec;
import dev.hourglass.internal.store.Replies.Counts;
import dev.hourglass.internal.store.Status;
import dev.hourglass.spi.PayloadCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine of one queue, shared by every handle on it whatever its payload type: each operation
 * is one script call on the job's partition, answered as a future of byte payloads. Arguments are
 * checked before anything is sent, and thrown at once. {@link QueueHandle} is the public face.
 */
final class RedisQueue {
  private static final Logger log = LoggerFactory.getLogger(RedisQueue.class);
  private static final Duration MAX_CLAIM_WAIT = Duration.ofHours(1);

  private final HourglassClient client;
  private final String name;
  final QueueTopology topology;
  final Settlements settlements;
  final Enqueues enqueues;
  final RedisDeadLetters dead;
  final Claims claims;
  final JobPages pages;
  final QueueLifecycle lifecycle;
  final QueueHandle<byte[]> bytes;

  RedisQueue(HourglassClient client, String name) {
    this.client = client;
    this.name = name;
    this.topology =
        new QueueTopology(
            name,
            client.store.registry(),
            client.store.outboxes(),
            client.store.keys(),
            client.settingsVersions,
            client.config.defaultQueueSettings());
    this.enqueues = new Enqueues(client, name, topology);
    this.settlements = new Settlements(client, name, topology);
    this.dead = new RedisDeadLetters(this, client.store);
    this.claims = new Claims(client, this);
    this.pages = new JobPages(this, client.store);
    this.lifecycle = new QueueLifecycle(this, client.store);
    this.bytes = new QueueHandle<>(this, PayloadCodec.bytes());
  }

  String name() {
    return name;
  }

  HourglassClient client() {
    return client;
  }

  CompletableFuture<QueueSettings> settings() {
    return topology.readAsync().thenApply(Snapshot::settings);
  }

  void configure(QueueSettings settings) {
    if (settings == null) {
      throw new InvalidArgumentException("settings", "is required");
    }
    topology.configure(settings);
  }

  // ---- inspect and admin ----

  CompletableFuture<Optional<JobInfo<byte[]>>> get(String id) {
    return read(id, false);
  }

  private CompletableFuture<Optional<JobInfo<byte[]>>> read(String id, boolean evenExpired) {
    Names.id(id);
    return topology
        .snapshotAsync()
        .thenCompose(s -> client.store.get(s.partitionOf(id), id, evenExpired))
        .thenApply(
            f -> {
              if (f.status() != Status.OK) {
                return Optional.empty();
              }
              JobState state = JobState.fromLabel(f.state());
              return Optional.of(
                  info(
                      id,
                      state,
                      f.record(),
                      state == JobState.INFLIGHT ? f.atMs() : 0,
                      state == JobState.DEAD ? f.atMs() : 0));
            });
  }

  /** The job's own backoff, or its queue's default (from the cached settings: never blocks). */
  Backoff backoffOf(RecordCodec.Decoded r) {
    return r.backoff() != null ? r.backoff() : topology.cached().settings().backoff();
  }

  JobInfo<byte[]> info(
      String id, JobState state, RecordCodec.Decoded r, long leaseUntil, long diedAt) {
    return new JobInfo<>(
        name,
        id,
        state,
        Instant.ofEpochMilli(r.due()),
        // The record counts finished attempts; an inflight job's delivery is one made, and its
        // claim called it attempt attempts + 1 (Deliveries).
        state == JobState.INFLIGHT ? r.attempts() + 1 : r.attempts(),
        r.maxAttempts(),
        Instant.ofEpochMilli(r.created()),
        r.expireAt() > 0 ? Optional.of(Instant.ofEpochMilli(r.expireAt())) : Optional.empty(),
        leaseUntil > 0 ? Optional.of(Instant.ofEpochMilli(leaseUntil)) : Optional.empty(),
        diedAt > 0 ? Optional.of(Instant.ofEpochMilli(diedAt)) : Optional.empty(),
        Duration.ofMillis(r.visibilityMs()),
        backoffOf(r),
        r.lastError().isEmpty() ? Optional.empty() : Optional.of(r.lastError()),
        r.toPayload());
  }

  CompletableFuture<Boolean> cancel(String id) {
    Names.id(id);
    return topology
        .snapshotAsync()
        .thenCompose(
            s -> client.store.cancel(s.partitionOf(id), id, client.replicaAcks(s.settings())))
        .thenApply(
            status ->
                switch (status) {
                  case OK -> true;
                  case NOT_FOUND -> false;
                  case INFLIGHT ->
                      throw new JobStateException(name, id, JobState.INFLIGHT, "cancel");
                  default ->
                      throw new IllegalStateException("unexpected cancel status for queue " + name);
                });
  }

  CompletableFuture<JobInfo<byte[]>> reschedule(String id, Duration delay) {
    if (delay == null || delay.isNegative()) {
      throw new InvalidArgumentException("delay", "must be zero or positive");
    }
    return reschedule(id, true, delay.toMillis(), client.serverClock.nowMs() + delay.toMillis());
  }

  CompletableFuture<JobInfo<byte[]>> reschedule(String id, Instant runAt) {
    if (runAt == null) {
      throw new InvalidArgumentException("runAt", "is required");
    }
    JobSpec.Builder.checkRunAt(runAt);
    return reschedule(id, false, runAt.toEpochMilli(), runAt.toEpochMilli());
  }

  private CompletableFuture<JobInfo<byte[]>> reschedule(
      String id, boolean relative, long time, long estimatedDue) {
    Names.id(id);
    return topology
        .snapshotAsync()
        .thenCompose(
            s ->
                client.store.reschedule(
                    s.partitionOf(id),
                    id,
                    relative,
                    time,
                    s.slotStart(estimatedDue),
                    s.lookaheadMs()))
        .thenApply(
            r ->
                switch (r.status()) {
                  // From the script's own reply: a consumer may take the job the moment the
                  // script ends.
                  case OK -> info(id, JobState.fromLabel(r.state()), r.record(), 0, 0);
                  case NOT_FOUND -> throw new JobNotFoundException(name, id);
                  case INFLIGHT ->
                      throw new JobStateException(name, id, JobState.INFLIGHT, "reschedule");
                  case DEAD -> throw new JobStateException(name, id, JobState.DEAD, "reschedule");
                  default ->
                      throw new IllegalStateException("unexpected reschedule status for " + name);
                });
  }

  /** One promotion pass, run off the caller's thread (it may wait for a partition's lock). */
  CompletableFuture<Long> promote() {
    return CompletableFuture.supplyAsync(() -> client.promoters.promoteNow(this), client.callbacks);
  }

  CompletableFuture<QueueStats> stats() {
    return topology
        .snapshotAsync()
        .thenCompose(
            s -> {
              List<CompletableFuture<Counts>> replies = new ArrayList<>();
              for (Partition part : s.partitions()) {
                replies.add(client.store.stats(part));
              }
              return CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new))
                  .thenApply(
                      done ->
                          QueueCounts.sum(
                              name, replies.stream().map(CompletableFuture::join).toList()));
            });
  }

  // ---- consume ----

  /** Ends long-poll waits and stops their watchers; the client calls this when it closes. */
  void close() {
    claims.close();
  }

  CompletableFuture<List<Delivery<byte[]>>> claim(int max, Duration visibility, Duration wait) {
    checkClaim(max, visibility);
    if (wait == null || wait.isNegative() || wait.compareTo(MAX_CLAIM_WAIT) > 0) {
      throw new InvalidArgumentException("wait", "must be between 0 and 1 h, was " + wait);
    }
    client.promoters.ensure(this);
    if (wait.isZero()) {
      return claims.any(max, visibility);
    }
    return claims.waitFor(max, visibility, wait);
  }

  /**
   * Hands back deliveries whose claim was given up before they reached anyone: ready again at once,
   * the attempt not counted. A failure leaves them to their lease.
   */
  void handBack(List<Delivery<byte[]>> got) {
    for (Delivery<byte[]> d : got) {
      settlements
          .release(d.id(), d.receipt())
          .whenComplete(
              (ok, error) -> {
                if (error != null) {
                  log.debug(
                      "job {} in {} comes back by its lease: {}", d.id(), name, error.toString());
                }
              });
    }
  }

  private static void checkClaim(int max, Duration visibility) {
    if (max < 1 || max > 1000) {
      throw new InvalidArgumentException("max", "must be between 1 and 1000, was " + max);
    }
    if (visibility != null) {
      Names.duration("visibility", visibility);
    }
  }

  CompletableFuture<Void> ack(String id, String receipt) {
    return settlements.ack(id, receipt);
  }

  /** A nack by id and receipt: a retry by backoff reads the job's attempts first. */
  CompletableFuture<NackResult> nack(String id, String receipt, Nack nack) {
    checkNack(id, receipt, nack);
    if (nack.kill() || nack.delay().isPresent()) {
      return nack(id, receipt, nack, 0);
    }
    // The backoff needs the job's attempt count: read it (past its ttl too: until swept, its
    // lease holds it, as for a nack with a delay). The script re-checks the receipt.
    return read(id, true)
        .thenCompose(
            job -> {
              JobInfo<byte[]> j = job.orElseThrow(() -> new JobNotFoundException(name, id));
              // The attempt being failed: an inflight job's attempts count it (a job in any
              // other state fails the receipt check).
              return nack(id, receipt, nack, Settlements.backoffDelay(j.backoff(), j.attempts()));
            });
  }

  /** A nack of a delivery: its attempt and backoff are known, nothing is read first. */
  CompletableFuture<NackResult> nack(Delivery<?> delivery, Nack nack) {
    if (delivery == null) {
      throw new InvalidArgumentException("delivery", "is required");
    }
    checkNack(delivery.id(), delivery.receipt(), nack);
    long backoffMs =
        nack.kill() || nack.delay().isPresent()
            ? 0
            : Settlements.backoffDelay(delivery.backoff(), delivery.attempt());
    return nack(delivery.id(), delivery.receipt(), nack, backoffMs);
  }

  private static void checkNack(String id, String receipt, Nack nack) {
    Names.id(id);
    Names.receipt(receipt);
    if (nack == null) {
      throw new InvalidArgumentException("nack", "is required");
    }
  }

  /** Sends a checked nack; {@code backoffMs} is the delay when the nack names none. */
  private CompletableFuture<NackResult> nack(String id, String receipt, Nack nack, long backoffMs) {
    long delayMs = nack.kill() ? 0 : nack.delay().map(Duration::toMillis).orElse(backoffMs);
    return topology
        .snapshotAsync() // the settings, read once, before the cached copy is used
        .thenCompose(s -> settlements.nack(id, receipt, nack.error(), delayMs, nack.kill()));
  }

  CompletableFuture<Void> release(String id, String receipt) {
    Names.id(id);
    Names.receipt(receipt);
    return settlements.release(id, receipt);
  }

  CompletableFuture<Instant> extend(String id, String receipt, Duration visibility) {
    Names.id(id);
    Names.receipt(receipt);
    Names.duration("visibility", visibility);
    return topology
        .snapshotAsync() // the settings, read once, before the cached copy is used
        .thenCompose(s -> settlements.extend(id, receipt, visibility.toMillis()));
  }
}
