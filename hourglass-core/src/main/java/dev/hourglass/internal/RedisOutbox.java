package dev.hourglass.internal;

import dev.hourglass.FinishedJob;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobOutcome;
import dev.hourglass.Outbox;
import dev.hourglass.internal.store.Failures;
import dev.hourglass.internal.store.Outboxes;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.Registry;
import dev.hourglass.internal.store.Replies.OutboxEntry;
import dev.hourglass.internal.store.Replies.OutboxRead;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;

/**
 * The {@link Outbox} of a client: the bound lives in a registry key (read when a queue is created,
 * whose partitions are then marked at once, see {@code QueueTopology}), and each partition's meta
 * says whether its scripts record (outbox.lua).
 */
final class RedisOutbox implements Outbox {
  static final int MAX_BOUND = 10_000_000;
  static final int MAX_READ = 10_000;

  private final Registry registry;
  private final Outboxes outboxes;
  private final QueueTopologies topologies;

  RedisOutbox(Registry registry, Outboxes outboxes, QueueTopologies topologies) {
    this.registry = registry;
    this.outboxes = outboxes;
    this.topologies = topologies;
  }

  @Override
  public void enable(int maxPerPartition) {
    if (maxPerPartition < 1 || maxPerPartition > MAX_BOUND) {
      throw new InvalidArgumentException(
          "maxPerPartition", "must be 1 to " + MAX_BOUND + ", was " + maxPerPartition);
    }
    Failures.await(registry.outboxBound(maxPerPartition));
    markEveryPartition(maxPerPartition);
  }

  @Override
  public void disable() {
    Failures.await(registry.outboxBound(0));
    markEveryPartition(-1);
  }

  /** Queues created from now on read the new bound when created; those that exist are marked. */
  private void markEveryPartition(long bound) {
    List<CompletableFuture<?>> marks = new ArrayList<>();
    for (String queue : registry.queueNames()) {
      for (Partition p : topologies.of(queue).snapshot().partitions()) {
        marks.add(outboxes.read(p, bound, 0));
      }
    }
    Failures.await(CompletableFuture.allOf(marks.toArray(CompletableFuture<?>[]::new)));
  }

  @Override
  public OptionalInt bound() {
    long bound = Failures.await(registry.outboxBound());
    return bound > 0 ? OptionalInt.of((int) bound) : OptionalInt.empty();
  }

  @Override
  public List<FinishedJob> read(String queue, int partition, int max) {
    return Failures.await(readAsync(queue, partition, max));
  }

  @Override
  public CompletableFuture<List<FinishedJob>> readAsync(String queue, int partition, int max) {
    String name = Names.queue(queue);
    if (max < 1 || max > MAX_READ) {
      throw new InvalidArgumentException("max", "must be 1 to " + MAX_READ + ", was " + max);
    }
    // A queue deleted meanwhile is not created again by reading it.
    return registry
        .queueExistsAsync(name)
        .thenCompose(
            exists ->
                !exists
                    ? CompletableFuture.completedFuture(List.of())
                    : partition(name, partition)
                        .thenCompose(
                            p ->
                                registry
                                    .outboxBound()
                                    .thenCompose(bound -> outboxes.read(p, bound, max)))
                        .thenApply(read -> finished(name, partition, read)));
  }

  private CompletableFuture<Partition> partition(String queue, int partition) {
    if (partition < 0) {
      throw new InvalidArgumentException("partition", "must be 0 or more, was " + partition);
    }
    return topologies
        .of(queue)
        .snapshotAsync()
        .thenApply(
            s -> {
              if (partition >= s.partitions().size()) {
                throw new InvalidArgumentException(
                    "partition",
                    "must be below the queue's " + s.partitions().size() + " partitions");
              }
              return s.partitions().get(partition);
            });
  }

  private static List<FinishedJob> finished(String queue, int partition, OutboxRead read) {
    List<FinishedJob> jobs = new ArrayList<>(read.entries().size());
    for (OutboxEntry e : read.entries()) {
      JobOutcome outcome = JobOutcome.ofWireName(e.outcome());
      var rec = e.record();
      jobs.add(
          new FinishedJob(
              e.recordId(),
              queue,
              partition,
              e.id(),
              outcome,
              Instant.ofEpochMilli(e.finishedMs()),
              Instant.ofEpochMilli(rec.created()),
              Instant.ofEpochMilli(rec.due()),
              // The record counts finished deliveries; an ack finishes the one it acks.
              outcome == JobOutcome.ACKED ? rec.attempts() + 1 : rec.attempts(),
              rec.lastError() == null || rec.lastError().isEmpty()
                  ? Optional.empty()
                  : Optional.of(rec.lastError()),
              rec.toPayload()));
    }
    return jobs;
  }

  @Override
  public void remove(String queue, int partition, List<String> recordIds) {
    Failures.await(removeAsync(queue, partition, recordIds));
  }

  @Override
  public CompletableFuture<Void> removeAsync(String queue, int partition, List<String> recordIds) {
    String name = Names.queue(queue);
    if (recordIds == null || recordIds.stream().anyMatch(java.util.Objects::isNull)) {
      throw new InvalidArgumentException("recordIds", "is required and may not hold null");
    }
    if (recordIds.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    List<String> ids = List.copyOf(recordIds);
    return partition(name, partition)
        .thenCompose(p -> outboxes.remove(p, ids))
        .thenApply(n -> null);
  }

  @Override
  public OutboxSize size(String queue) {
    String name = Names.queue(queue);
    if (!registry.queueExists(name)) {
      return new OutboxSize(0, 0);
    }
    long waiting = 0;
    long dropped = 0;
    for (Partition p : topologies.of(name).snapshot().partitions()) {
      OutboxRead read = Failures.await(outboxes.read(p, 0, 0));
      waiting += read.waiting();
      dropped += read.dropped();
    }
    return new OutboxSize(waiting, dropped);
  }
}
