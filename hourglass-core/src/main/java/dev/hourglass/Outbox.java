package dev.hourglass;

import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;

/**
 * Finished jobs waiting in Redis for an archiver ({@link Hourglass#outbox()}).
 *
 * <p>While recording is on, the same Lua script that finishes a job (ack, a nack or lapsed lease
 * that makes it dead, cancel, ttl expiry, a purge or the dead-letter retention) appends its record
 * to the outbox of its partition, a Redis stream in the partition's hash slot. So a record exists
 * exactly when Redis has finished the job, whatever process crashes. An archiver {@link #read}s the
 * oldest records, stores them, and then {@link #remove}s them; a crash between the two stores a
 * record twice, so an archiver stores each {@link FinishedJob#recordId()} once.
 *
 * <p>Each partition's outbox is bounded: past {@code maxPerPartition} records the oldest is dropped
 * as the new one is added, and counted ({@link OutboxSize#dropped()}), so a database that stays
 * down cannot fill Redis's memory.
 */
public interface Outbox {
  /** The most records a partition's outbox may hold by default. */
  int DEFAULT_MAX_PER_PARTITION = 100_000;

  /**
   * Turns recording on for every queue, those created later included, or changes its bound. Queues
   * whose partitions are created through a client that has not yet seen the change are marked by
   * the next {@link #read} of their partitions.
   *
   * @throws InvalidArgumentException unless {@code maxPerPartition} is 1 to 10,000,000
   */
  void enable(int maxPerPartition);

  /** Turns recording off for every queue; records already waiting stay until removed. */
  void disable();

  /** The bound per partition while recording is on; empty while it is off. */
  OptionalInt bound();

  /**
   * Up to {@code max} records of one partition of the queue, oldest first. Also marks the partition
   * as recording when it was created before the client saw {@link #enable}.
   *
   * @throws InvalidArgumentException for a bad partition or a max outside 1..10,000
   */
  List<FinishedJob> read(String queue, int partition, int max);

  /** {@link #read} without blocking. */
  CompletableFuture<List<FinishedJob>> readAsync(String queue, int partition, int max);

  /** Deletes records once they are stored; ids no longer there are ignored. */
  void remove(String queue, int partition, List<String> recordIds);

  /** {@link #remove} without blocking. */
  CompletableFuture<Void> removeAsync(String queue, int partition, List<String> recordIds);

  /** Records waiting in the queue's outbox, and dropped past its bound, over all partitions. */
  OutboxSize size(String queue);

  /**
   * The size of a queue's outbox.
   *
   * @param waiting records not yet removed
   * @param dropped records dropped past the bound since the queue was created
   */
  record OutboxSize(long waiting, long dropped) {}
}
