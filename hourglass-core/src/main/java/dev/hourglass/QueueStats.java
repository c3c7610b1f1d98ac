package dev.hourglass;

/**
 * Counts of a queue's jobs per state, summed over its partitions, and its counters since creation.
 *
 * @param enqueued jobs created
 * @param delivered deliveries handed to consumers (each attempt counts)
 * @param acked jobs finished by ack
 * @param retried failed or expired deliveries that were scheduled again
 * @param killed jobs that went dead
 * @param expired jobs dropped because their ttl ran out
 * @param cancelled jobs removed by cancel
 */
public record QueueStats(
    String queue,
    int partitions,
    long delayed,
    long ready,
    long inflight,
    long dead,
    long enqueued,
    long delivered,
    long acked,
    long retried,
    long killed,
    long expired,
    long cancelled) {

  /** Jobs that exist now, in any state. */
  public long total() {
    return delayed + ready + inflight + dead;
  }
}
