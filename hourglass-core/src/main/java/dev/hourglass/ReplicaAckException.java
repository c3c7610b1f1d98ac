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
  private final int required;
  private final long acked;

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

  /** The number of replicas the write had to reach. */
  public int required() {
    return required;
  }

  /** The number of replicas WAIT reported as having the write when it timed out. */
  public long acked() {
    return acked;
  }
}
