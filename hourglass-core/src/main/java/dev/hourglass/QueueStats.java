package dev.hourglass;

/**
 * Counts of a queue's jobs per state now, summed over its partitions, and its counters since
 * creation, and whether it is paused ({@link Queue#pause}). The names are those of the HTTP API
 * ({@code GET /v1/queues/{queue}}).
 *
 * @param queue the queue name
 * @param partitions the queue's partitions
 * @param delayed jobs waiting for their due time
 * @param ready jobs due and waiting for a consumer
 * @param inflight jobs leased to a consumer
 * @param dead jobs in the dead letters
 * @param paused whether claims are paused
 * @param counters what happened to the queue's jobs since it was created
 * @param heldBack ready jobs that the queue's flow-control limits ({@link QueueLimits}) hold back
 *     right now: in each partition, its ready jobs beyond what a claim could lease there now (0
 *     without limits, or when a claim now could take every ready job)
 */
public record QueueStats(
    String queue,
    int partitions,
    long delayed,
    long ready,
    long inflight,
    long dead,
    boolean paused,
    Counters counters,
    long heldBack) {

  /**
   * Stats of a queue without flow-control limits holding jobs back.
   *
   * @param queue the queue name
   * @param partitions the queue's partitions
   * @param delayed jobs waiting for their due time
   * @param ready jobs due and waiting for a consumer
   * @param inflight jobs leased to a consumer
   * @param dead jobs in the dead letters
   * @param paused whether claims are paused
   * @param counters what happened to the queue's jobs since it was created
   */
  public QueueStats(
      String queue,
      int partitions,
      long delayed,
      long ready,
      long inflight,
      long dead,
      boolean paused,
      Counters counters) {
    this(queue, partitions, delayed, ready, inflight, dead, paused, counters, 0);
  }

  /**
   * Jobs that exist now, in any state.
   *
   * @return delayed + ready + inflight + dead
   */
  public long total() {
    return delayed + ready + inflight + dead;
  }

  /**
   * What happened to the queue's jobs since it was created.
   *
   * @param enqueued jobs created
   * @param delivered deliveries handed to consumers (each attempt counts)
   * @param acked jobs finished by ack
   * @param retried failed or expired deliveries that were scheduled again
   * @param dead jobs that went dead
   * @param expired jobs dropped because their ttl ran out
   * @param cancelled jobs removed by cancel
   * @param occurrences occurrences of schedules enqueued (counted in {@code enqueued} too)
   */
  public record Counters(
      long enqueued,
      long delivered,
      long acked,
      long retried,
      long dead,
      long expired,
      long cancelled,
      long occurrences) {

    /**
     * Counters of a queue that enqueued no occurrence of a schedule.
     *
     * @param enqueued jobs created
     * @param delivered deliveries handed to consumers (each attempt counts)
     * @param acked jobs finished by ack
     * @param retried failed or expired deliveries that were scheduled again
     * @param dead jobs that went dead
     * @param expired jobs dropped because their ttl ran out
     * @param cancelled jobs removed by cancel
     */
    public Counters(
        long enqueued,
        long delivered,
        long acked,
        long retried,
        long dead,
        long expired,
        long cancelled) {
      this(enqueued, delivered, acked, retried, dead, expired, cancelled, 0);
    }
  }
}
