package dev.hourglass.internal;

import dev.hourglass.Backoff;
import dev.hourglass.DeadLetters;
import dev.hourglass.Delivery;
import dev.hourglass.EnqueueResult;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobInfo;
import dev.hourglass.JobNotFoundException;
import dev.hourglass.JobSpec;
import dev.hourglass.JobState;
import dev.hourglass.JobStateException;
import dev.hourglass.Nack;
import dev.hourglass.NackResult;
import dev.hourglass.Queue;
import dev.hourglass.QueueSettings;
import dev.hourglass.QueueStats;
import dev.hourglass.internal.QueueTopology.Snapshot;
import dev.hourglass.internal.store.Failures;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.RecordCodec;
import dev.hourglass.internal.store.Replies.Counts;
import dev.hourglass.internal.store.Replies.Found;
import dev.hourglass.internal.store.Replies.Rescheduled;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** The {@link Queue} implementation: each operation is one script call on the job's partition. */
final class RedisQueue implements Queue {
  private static final Duration MAX_CLAIM_WAIT = Duration.ofHours(1);

  private final HourglassClient client;
  private final String name;
  final QueueTopology topology;
  final Settlements settlements;
  private final Enqueues enqueues;
  private final RedisDeadLetters dead;
  final Claims claims;

  RedisQueue(HourglassClient client, String name) {
    this.client = client;
    this.name = name;
    this.topology =
        new QueueTopology(
            name,
            client.store.registry(),
            client.store.keys(),
            client.settingsVersions,
            client.config.defaultQueueSettings());
    this.enqueues = new Enqueues(client, name, topology);
    this.settlements = new Settlements(client, name, topology);
    this.dead = new RedisDeadLetters(this, client.store);
    this.claims = new Claims(client, this);
  }

  @Override
  public String name() {
    return name;
  }

  HourglassClient client() {
    return client;
  }

  @Override
  public QueueSettings settings() {
    return topology.read().settings();
  }

  void configure(QueueSettings settings) {
    if (settings == null) {
      throw new InvalidArgumentException("settings", "is required");
    }
    topology.configure(settings);
  }

  // ---- enqueue ----

  @Override
  public EnqueueResult enqueue(JobSpec spec) {
    return Failures.await(enqueues.unique(spec));
  }

  @Override
  public EnqueueResult enqueueIfAbsent(JobSpec spec) {
    return Failures.await(enqueues.one(spec));
  }

  @Override
  public CompletableFuture<EnqueueResult> enqueueAsync(JobSpec spec) {
    return enqueues.unique(spec);
  }

  @Override
  public List<EnqueueResult> enqueueAll(List<JobSpec> specs) {
    return Failures.await(enqueues.all(specs));
  }

  @Override
  public CompletableFuture<List<EnqueueResult>> enqueueAllAsync(List<JobSpec> specs) {
    return enqueues.all(specs);
  }

  // ---- inspect and admin ----

  @Override
  public Optional<JobInfo> get(String id) {
    return read(id, false);
  }

  private Optional<JobInfo> read(String id, boolean evenExpired) {
    Names.id(id);
    Found f =
        Failures.await(client.store.get(topology.snapshot().partitionOf(id), id, evenExpired));
    if (f.status() != dev.hourglass.internal.store.Status.OK) {
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
  }

  /** The job's own backoff, or its queue's default (from the cached settings: never blocks). */
  Backoff backoffOf(RecordCodec.Decoded r) {
    return r.backoff() != null ? r.backoff() : topology.cached().settings().backoff();
  }

  JobInfo info(String id, JobState state, RecordCodec.Decoded r, long leaseUntil, long diedAt) {
    return new JobInfo(
        name,
        id,
        state,
        Instant.ofEpochMilli(r.due()),
        r.attempts(),
        r.maxAttempts(),
        Instant.ofEpochMilli(r.created()),
        r.expireAt() > 0 ? Optional.of(Instant.ofEpochMilli(r.expireAt())) : Optional.empty(),
        leaseUntil > 0 ? Optional.of(Instant.ofEpochMilli(leaseUntil)) : Optional.empty(),
        diedAt > 0 ? Optional.of(Instant.ofEpochMilli(diedAt)) : Optional.empty(),
        Duration.ofMillis(r.visibilityMs()),
        backoffOf(r),
        r.lastError().isEmpty() ? Optional.empty() : Optional.of(r.lastError()),
        r.payload());
  }

  @Override
  public boolean cancel(String id) {
    Names.id(id);
    return switch (Failures.await(client.store.cancel(topology.snapshot().partitionOf(id), id))) {
      case OK -> true;
      case NOT_FOUND -> false;
      case INFLIGHT -> throw new JobStateException(name, id, JobState.INFLIGHT, "cancel");
      default -> throw new IllegalStateException("unexpected cancel status for queue " + name);
    };
  }

  @Override
  public JobInfo reschedule(String id, Duration delay) {
    if (delay == null || delay.isNegative()) {
      throw new InvalidArgumentException("delay", "must be zero or positive");
    }
    return reschedule(id, true, delay.toMillis(), client.serverClock.nowMs() + delay.toMillis());
  }

  @Override
  public JobInfo reschedule(String id, Instant runAt) {
    if (runAt == null) {
      throw new InvalidArgumentException("runAt", "is required");
    }
    JobSpec.Builder.checkRunAt(runAt);
    return reschedule(id, false, runAt.toEpochMilli(), runAt.toEpochMilli());
  }

  private JobInfo reschedule(String id, boolean relative, long time, long estimatedDue) {
    Names.id(id);
    Snapshot s = topology.snapshot();
    Rescheduled r =
        Failures.await(
            client.store.reschedule(
                s.partitionOf(id), id, relative, time, s.slotStart(estimatedDue), s.lookaheadMs()));
    return switch (r.status()) {
      // From the script's own reply: a consumer may take the job the moment the script ends.
      case OK -> info(id, JobState.fromLabel(r.state()), r.record(), 0, 0);
      case NOT_FOUND -> throw new JobNotFoundException(name, id);
      case INFLIGHT -> throw new JobStateException(name, id, JobState.INFLIGHT, "reschedule");
      case DEAD -> throw new JobStateException(name, id, JobState.DEAD, "reschedule");
      default -> throw new IllegalStateException("unexpected reschedule status for " + name);
    };
  }

  @Override
  public long promote() {
    return client.promoters.promoteNow(this);
  }

  @Override
  public DeadLetters dead() {
    return dead;
  }

  @Override
  public QueueStats stats() {
    Snapshot s = topology.snapshot();
    List<CompletableFuture<Counts>> replies = new ArrayList<>();
    for (Partition part : s.partitions()) {
      replies.add(client.store.stats(part));
    }
    return QueueCounts.sum(name, replies.stream().map(Failures::await).toList());
  }

  // ---- consume ----

  /** Ends long-poll waits and stops their watchers; the client calls this when it closes. */
  void close() {
    claims.close();
  }

  @Override
  public List<Delivery> claim(int max, Duration visibility) {
    checkClaim(max, visibility);
    client.promoters.ensure(this);
    return Failures.await(claims.any(max, visibility));
  }

  @Override
  public List<Delivery> claim(int max, Duration visibility, Duration wait) {
    return Failures.await(claimAsync(max, visibility, wait));
  }

  @Override
  public CompletableFuture<List<Delivery>> claimAsync(int max, Duration visibility, Duration wait) {
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

  private static void checkClaim(int max, Duration visibility) {
    if (max < 1 || max > 1000) {
      throw new InvalidArgumentException("max", "must be between 1 and 1000, was " + max);
    }
    if (visibility != null) {
      Names.duration("visibility", visibility);
    }
  }

  @Override
  public void ack(String id, String receipt) {
    Failures.await(settlements.ack(id, receipt));
  }

  @Override
  public NackResult nack(String id, String receipt, Nack nack) {
    Names.id(id);
    Names.receipt(receipt);
    if (nack == null) {
      throw new InvalidArgumentException("nack", "is required");
    }
    long delayMs = 0;
    if (!nack.kill()) {
      if (nack.delay().isPresent()) {
        delayMs = nack.delay().get().toMillis();
      } else {
        // The backoff needs the job's attempt count: read it (past its ttl too: until swept, its
        // lease holds it, as for a nack with a delay). The script re-checks the receipt.
        JobInfo job = read(id, true).orElseThrow(() -> new JobNotFoundException(name, id));
        delayMs = Settlements.backoffDelay(job.backoff(), job.attempts() + 1);
      }
    }
    return Failures.await(settlements.nack(id, receipt, nack.error(), delayMs, nack.kill()));
  }

  @Override
  public Instant extend(String id, String receipt, Duration visibility) {
    Names.id(id);
    Names.receipt(receipt);
    Names.duration("visibility", visibility);
    topology.snapshot(); // the settings, read once, before the cached copy is used
    return Failures.await(settlements.extend(id, receipt, visibility.toMillis()));
  }
}
