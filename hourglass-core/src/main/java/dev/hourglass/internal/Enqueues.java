package dev.hourglass.internal;

import dev.hourglass.DuplicateJobException;
import dev.hourglass.EnqueueResult;
import dev.hourglass.HourglassBuilder;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobSpec;
import dev.hourglass.JobState;
import dev.hourglass.PayloadTooLargeException;
import dev.hourglass.QueueSettings;
import dev.hourglass.internal.QueueTopology.Snapshot;
import dev.hourglass.internal.store.Keys;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.PayloadPacker;
import dev.hourglass.internal.store.RecordCodec;
import dev.hourglass.internal.store.Replies.Enqueued;
import dev.hourglass.internal.store.ServerClock;
import dev.hourglass.internal.store.Status;
import dev.hourglass.internal.store.Store;
import dev.hourglass.internal.store.Store.NewJob;
import dev.hourglass.spi.IdGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * The enqueues of one queue: a {@link JobSpec} checked and turned into a {@link NewJob} with the
 * queue's defaults, then sent. Concurrent single enqueues to one partition share script calls
 * ({@link CallBatcher}); {@link #enqueueAll} groups by partition, {@value #CHUNK} jobs per script
 * call, all calls pipelined.
 */
final class Enqueues {
  private static final int CHUNK = 500;

  private final String queue;
  private final QueueTopology topology;
  private final Store store;
  private final ServerClock clock;
  private final HourglassBuilder.Config config;
  private final IdGenerator ids;
  private final Executor callbacks;
  private final PayloadPacker packer;

  /**
   * Per partition, keyed by the partition itself, not its index: a queue deleted and created again
   * with other partitions has other partition objects, and a batcher bound to an old one would send
   * jobs to keys the queue no longer reads.
   */
  private final Map<Partition, CallBatcher<NewJob, EnqueueResult>> batchers =
      new ConcurrentHashMap<>();

  /** {@code ids}: the client's id generator ({@link RandomIds} unless a plug-in is set). */
  Enqueues(
      QueueTopology topology,
      Store store,
      ServerClock clock,
      HourglassBuilder.Config config,
      IdGenerator ids,
      Executor callbacks) {
    this.queue = topology.name();
    this.topology = topology;
    this.store = store;
    this.clock = clock;
    this.config = config;
    this.ids = ids;
    this.callbacks = callbacks;
    this.packer = new PayloadPacker(store.payloads(), callbacks, queue);
  }

  /**
   * One job; a duplicate id is a result with {@code created() == false}. Validation errors are
   * thrown at once; Redis failures, the settings read's included, fail the future.
   */
  CompletableFuture<EnqueueResult> one(JobSpec spec) {
    validate(spec);
    return topology
        .snapshotAsync()
        .thenCompose(
            s -> {
              NewJob job = prepare(spec, s);
              Partition part = s.partitionOf(job.id());
              return batchers
                  .computeIfAbsent(
                      part,
                      k ->
                          new CallBatcher<NewJob, EnqueueResult>(
                              // The settings of when the batch is sent (the slot lookahead).
                              jobs ->
                                  send(part, topology.cached(), jobs)
                                      .thenApply(List::<Object>copyOf),
                              callbacks,
                              CHUNK,
                              s.inFlightPerPartition(CallBatcher.MAX_IN_FLIGHT)))
                  .submit(job);
            });
  }

  /** {@link #one}, with a duplicate id failing the future. */
  CompletableFuture<EnqueueResult> unique(JobSpec spec) {
    return one(spec)
        .thenApply(
            r -> {
              if (r.duplicate()) {
                throw new DuplicateJobException(queue, r.id());
              }
              return r;
            });
  }

  /** Many jobs, every spec checked before anything is sent; results in request order. */
  CompletableFuture<List<EnqueueResult>> all(List<JobSpec> specs) {
    if (specs == null) {
      throw new InvalidArgumentException("specs", "is required");
    }
    for (int i = 0; i < specs.size(); i++) {
      try {
        validate(specs.get(i));
      } catch (InvalidArgumentException e) {
        throw e.under("specs[" + i + "]");
      }
    }
    return topology.snapshotAsync().thenCompose(s -> sendAll(s, specs));
  }

  private CompletableFuture<List<EnqueueResult>> sendAll(Snapshot s, List<JobSpec> specs) {
    List<NewJob> jobs = new ArrayList<>(specs.size());
    for (int i = 0; i < specs.size(); i++) {
      try {
        jobs.add(prepare(specs.get(i), s));
      } catch (InvalidArgumentException e) {
        throw e.under("specs[" + i + "]");
      }
    }
    Map<Integer, List<Integer>> byPartition = new LinkedHashMap<>();
    for (int i = 0; i < jobs.size(); i++) {
      byPartition
          .computeIfAbsent(s.partitionOf(jobs.get(i).id()).index(), k -> new ArrayList<>())
          .add(i);
    }
    EnqueueResult[] results = new EnqueueResult[jobs.size()];
    List<CompletableFuture<Void>> pending = new ArrayList<>();
    byPartition.forEach(
        (p, indexes) -> {
          for (int from = 0; from < indexes.size(); from += CHUNK) {
            List<Integer> chunk = indexes.subList(from, Math.min(indexes.size(), from + CHUNK));
            List<NewJob> chunkJobs = new ArrayList<>(chunk.size());
            for (int i : chunk) {
              chunkJobs.add(jobs.get(i));
            }
            pending.add(
                send(s.partitions().get(p), s, chunkJobs)
                    .thenAccept(
                        rs -> {
                          for (int k = 0; k < chunk.size(); k++) {
                            results[chunk.get(k)] = rs.get(k);
                          }
                        }));
          }
        });
    return CompletableFuture.allOf(pending.toArray(new CompletableFuture<?>[0]))
        .thenApply(done -> List.of(results));
  }

  private CompletableFuture<List<EnqueueResult>> send(
      Partition part, Snapshot s, List<NewJob> jobs) {
    return store
        .enqueue(part, s.lookaheadMs(), jobs, config.replicaAcksFor(s.settings()))
        .thenApply(
            replies -> {
              List<EnqueueResult> results = new ArrayList<>(replies.size());
              for (Enqueued e : replies) {
                results.add(
                    new EnqueueResult(
                        e.id(),
                        queue,
                        JobState.fromLabel(e.state()),
                        Instant.ofEpochMilli(e.dueMs()),
                        e.status() == Status.OK));
              }
              return results;
            });
  }

  /** The checks that need no queue settings. */
  private void validate(JobSpec spec) {
    if (spec == null) {
      throw new InvalidArgumentException("spec", "is required");
    }
    int size = spec.payloadSize();
    if (size > config.maxPayloadBytes()) {
      throw new PayloadTooLargeException(size, config.maxPayloadBytes());
    }
  }

  /** The job a validated spec makes with the queue's defaults. */
  private NewJob prepare(JobSpec spec, Snapshot s) {
    QueueSettings q = s.settings();
    boolean relative = spec.runAt().isEmpty(); // a delay from the enqueue, else epoch ms
    long time =
        relative
            ? spec.delay().map(Duration::toMillis).orElse(0L)
            : spec.runAt().get().toEpochMilli();
    String id;
    boolean fresh = false;
    if (spec.id().isPresent()) {
      id = spec.id().get();
    } else if (ids instanceof RandomIds made) {
      // 72 random bits: no live job holds it. Its pool is chosen by its due time (see
      // Keys.poolForDue), so that a claim of jobs due together reads few pools.
      long due = relative ? clock.nowMs() + time : time;
      id = made.newId(Keys.poolForDue(due, s.settings().pools()));
      fresh = true;
    } else {
      id = Names.id(ids.newId()); // a plug-in generator's id is checked, and looked up
    }
    PayloadPacker.Packed payload =
        packer.pack(spec.payload(), config.compressAboveFor(q), s.partitions().get(0));
    return new NewJob(
        id,
        fresh,
        relative,
        time,
        spec.ttl().or(q::ttl).map(Duration::toMillis).orElse(0L),
        spec.maxAttempts().orElse(q.maxAttempts()),
        spec.visibility().orElse(q.visibility()).toMillis(),
        spec.backoff().orElse(null), // null: the queue's default, applied at retry time
        RecordCodec.withPriority(payload.flags(), spec.priority().orElse(q.priority())),
        payload.bytes(),
        payload.dictionary());
  }
}
