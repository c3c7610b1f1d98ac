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
   * @param maxPerPartition the most records a partition's outbox holds, 1 to 10,000,000
   * @throws InvalidArgumentException unless {@code maxPerPartition} is 1 to 10,000,000
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  void enable(int maxPerPartition);

  /**
   * Turns recording off for every queue; records already waiting stay until removed.
   *
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  void disable();

  /**
   * The bound per partition while recording is on (one read).
   *
   * @return the bound, or empty while recording is off
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  OptionalInt bound();

  /**
   * Up to {@code max} records of one partition of the queue, oldest first. Also marks the partition
   * as recording when it was created before the client saw {@link #enable}. Removes nothing.
   *
   * @param queue the queue name
   * @param partition 0 to the queue's partitions - 1
   * @param max 1 to 10,000
   * @return the records, oldest first; none for a queue that does not exist
   * @throws InvalidArgumentException for a bad queue name, a bad partition or a max outside
   *     1..10,000
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  List<FinishedJob> read(String queue, int partition, int max);

  /**
   * {@link #read} without blocking.
   *
   * @param queue the queue name
   * @param partition 0 to the queue's partitions - 1
   * @param max 1 to 10,000
   * @return a future of the records, oldest first (none for a queue that does not exist); it fails
   *     with {@link InvalidArgumentException} for a partition outside the queue's, and with {@link
   *     RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, for a bad queue name or a max outside 1..10,000
   */
  CompletableFuture<List<FinishedJob>> readAsync(String queue, int partition, int max);

  /**
   * Deletes records once they are stored; ids no longer there are ignored.
   *
   * @param queue the queue name
   * @param partition the partition the records were read from
   * @param recordIds {@link FinishedJob#recordId()}s of that partition; none is a no-op
   * @throws InvalidArgumentException for a bad queue name or partition, or null ids
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  void remove(String queue, int partition, List<String> recordIds);

  /**
   * {@link #remove} without blocking.
   *
   * @param queue the queue name
   * @param partition the partition the records were read from
   * @param recordIds {@link FinishedJob#recordId()}s of that partition; none is a no-op
   * @return a future that completes once the records are deleted; it fails with {@link
   *     InvalidArgumentException} for a partition beyond the queue's, and with {@link
   *     RedisUnavailableException} when Redis cannot take the call
   * @throws InvalidArgumentException at once, for a bad queue name, a negative partition, or null
   *     ids
   */
  CompletableFuture<Void> removeAsync(String queue, int partition, List<String> recordIds);

  /**
   * Records waiting in the queue's outbox, and dropped past its bound, over all partitions.
   *
   * @param queue the queue name
   * @return the counts; zero for a queue that does not exist
   * @throws InvalidArgumentException for a bad queue name
   * @throws RedisUnavailableException when Redis cannot take the call
   */
  OutboxSize size(String queue);

  /**
   * The size of a queue's outbox.
   *
   * @param waiting records not yet removed
   * @param dropped records dropped past the bound since the queue was created
   */
  record OutboxSize(long waiting, long dropped) {}
}
