package dev.hourglass;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A queue's flow-control limits ({@link QueueSettings#limits()}): a rate (at most {@code max}
 * deliveries start in any window of {@code period}, a sliding window) and a concurrency (at most
 * that many of the queue's jobs are leased at once), either or both. Claims enforce them inside
 * Redis, so every worker, long poll, server and push or broker delivery of the queue obeys one
 * limit; a claim over a limit leases fewer jobs or none, the jobs held back stay ready, and a
 * consumer held back sleeps until the limit next lets a job through (or an ack frees a place).
 *
 * <p>A queue of P partitions gives each partition a share of each limit (the shares sum to the
 * limit, each at least 1; so a limit below P becomes 1 per partition, P in all), and each partition
 * enforces its share: exact with one partition, the default. See docs/ARCHITECTURE.md, "Flow
 * control". Immutable.
 */
public final class QueueLimits {
  /** The largest rate {@code max}. */
  public static final int MAX_RATE = 1_000_000;

  /** The longest rate period: 24 h. */
  public static final Duration MAX_PERIOD = Duration.ofDays(1);

  /** The largest concurrency. */
  public static final int MAX_CONCURRENCY = 100_000;

  /**
   * A rate limit: at most {@code max} deliveries start in any window of {@code period}.
   *
   * @param max 1 to {@value QueueLimits#MAX_RATE}
   * @param period 1 ms to 24 h, whole milliseconds
   */
  public record Rate(int max, Duration period) {
    /**
     * Checks the bounds.
     *
     * @param max 1 to {@value QueueLimits#MAX_RATE}
     * @param period 1 ms to 24 h, whole milliseconds
     * @throws InvalidArgumentException naming {@code limits.rate.max} or {@code
     *     limits.rate.periodMs} when one is out of range
     */
    public Rate {
      if (max < 1 || max > MAX_RATE) {
        throw new InvalidArgumentException(
            "limits.rate.max", "must be between 1 and " + MAX_RATE + ", was " + max);
      }
      if (period == null
          || period.toMillis() < 1
          || period.compareTo(MAX_PERIOD) > 0
          || !Duration.ofMillis(period.toMillis()).equals(period)) {
        throw new InvalidArgumentException(
            "limits.rate.periodMs",
            "must be whole milliseconds between 1 ms and 24 h, was " + period);
      }
    }
  }

  private final Rate rate;
  private final Integer concurrency;

  private QueueLimits(Rate rate, Integer concurrency) {
    if (concurrency != null && (concurrency < 1 || concurrency > MAX_CONCURRENCY)) {
      throw new InvalidArgumentException(
          "limits.concurrency",
          "must be between 1 and " + MAX_CONCURRENCY + ", was " + concurrency);
    }
    if (rate == null && concurrency == null) {
      throw new InvalidArgumentException("limits", "must hold a rate, a concurrency or both");
    }
    this.rate = rate;
    this.concurrency = concurrency;
  }

  /**
   * A rate limit alone.
   *
   * @param max deliveries that may start in any window of {@code period}: 1 to {@value #MAX_RATE}
   * @param period the window: 1 ms to 24 h
   * @return the limits
   * @throws InvalidArgumentException when a value is out of range
   */
  public static QueueLimits rate(int max, Duration period) {
    return new QueueLimits(new Rate(max, period), null);
  }

  /**
   * A concurrency limit alone.
   *
   * @param concurrency jobs leased at once at most: 1 to {@value #MAX_CONCURRENCY}
   * @return the limits
   * @throws InvalidArgumentException when the value is out of range
   */
  public static QueueLimits concurrency(int concurrency) {
    return new QueueLimits(null, concurrency);
  }

  /**
   * Limits of any parts.
   *
   * @param rate the rate limit, or null for none
   * @param concurrency the concurrency limit, or null for none
   * @return the limits
   * @throws InvalidArgumentException when both are null or a value is out of range
   */
  public static QueueLimits of(Rate rate, Integer concurrency) {
    return new QueueLimits(rate, concurrency);
  }

  /**
   * These limits with a concurrency limit too.
   *
   * @param concurrency 1 to {@value #MAX_CONCURRENCY}
   * @return new limits
   * @throws InvalidArgumentException when the value is out of range
   */
  public QueueLimits withConcurrency(int concurrency) {
    return new QueueLimits(rate, concurrency);
  }

  /**
   * These limits with a rate limit too.
   *
   * @param max 1 to {@value #MAX_RATE}
   * @param period 1 ms to 24 h
   * @return new limits
   * @throws InvalidArgumentException when a value is out of range
   */
  public QueueLimits withRate(int max, Duration period) {
    return new QueueLimits(new Rate(max, period), concurrency);
  }

  /**
   * The rate limit.
   *
   * @return the rate limit, or empty for none
   */
  public Optional<Rate> rate() {
    return Optional.ofNullable(rate);
  }

  /**
   * The concurrency limit.
   *
   * @return the most jobs leased at once, or empty for no limit
   */
  public OptionalInt concurrency() {
    return concurrency == null ? OptionalInt.empty() : OptionalInt.of(concurrency);
  }

  /**
   * The share of a limit that partition {@code index} of {@code partitions} enforces: the limit
   * split as evenly as whole numbers allow (the first {@code limit % partitions} partitions take
   * one more), at least 1 each, so the shares sum to the limit when it is at least {@code
   * partitions}.
   *
   * @param limit the queue's limit
   * @param index the partition, 0-based
   * @param partitions the queue's partitions
   * @return the partition's share, at least 1
   */
  public static int share(int limit, int index, int partitions) {
    int share = limit / partitions + (index < limit % partitions ? 1 : 0);
    return Math.max(1, share);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof QueueLimits l
        && Objects.equals(rate, l.rate)
        && Objects.equals(concurrency, l.concurrency);
  }

  @Override
  public int hashCode() {
    return Objects.hash(rate, concurrency);
  }

  @Override
  public String toString() {
    return "QueueLimits{rate=" + rate + ", concurrency=" + concurrency + "}";
  }
}
