package dev.hourglass;

/**
 * A write in replica-acknowledged mode ({@link HourglassBuilder#replicaAcks}, {@link
 * QueueSettings.Builder#replicaAcks}) took effect on the master, but fewer replicas than required
 * confirmed it within the timeout. The write may or may not survive a failover, so its outcome is
 * unknown ({@link #outcomeUnknown()} is true), as for a lost connection: check with {@link
 * Queue#get(String)} before retrying, or retry with the same id.
 */
public class ReplicaAckException extends RedisUnavailableException {
  private static final long serialVersionUID = 1L;

  /** Replicas the write had to reach. */
  private final int required;

  /** Replicas that confirmed it in time. */
  private final long acked;

  /**
   * Too few replicas confirmed a write in time.
   *
   * @param required the replicas the write had to reach
   * @param acked the replicas WAIT reported
   * @param timeoutMs the WAIT timeout
   */
  public ReplicaAckException(int required, long acked, long timeoutMs) {
    super(
        "only "
            + acked
            + " of "
            + required
            + " replicas confirmed the write within "
            + timeoutMs
            + " ms; it may or may not survive a failover",
        true,
        null);
    this.required = required;
    this.acked = acked;
  }

  /**
   * The number of replicas the write had to reach.
   *
   * @return 1 to {@value QueueSettings#MAX_REPLICA_ACKS}
   */
  public int required() {
    return required;
  }

  /**
   * The number of replicas WAIT reported as having the write when it timed out.
   *
   * @return fewer than {@link #required()}
   */
  public long acked() {
    return acked;
  }
}
