package dev.hourglass;

import java.time.Duration;

/**
 * How a {@link Worker} runs. Immutable; build with {@link #builder()}.
 *
 * @param concurrency handler threads
 * @param prefetch the most jobs the worker may hold leased beyond its handler threads, waiting in
 *     memory for a free thread (default {@value Builder#DEFAULT_PREFETCH}; 0: never more leased
 *     jobs than threads). Prefetch lets one claim carry many jobs, which a burst of short jobs
 *     needs (docs/BENCHMARKS-HISTORY.md, "Defaults"). The worker holds fewer when its handlers are
 *     slow: as many as its threads finish, at their mean handler time so far, within a quarter of
 *     the visibility (at most 1 s), so a prefetched job starts soon and other workers get their
 *     share. With {@code autoExtend} (the default) the lease of a job waiting for a thread is
 *     extended like a running one's, so no lease lapses while the worker holds it, even when the
 *     handlers slow down. On close, prefetched jobs that have not started are handed back at once,
 *     their attempt not counted.
 * @param maxClaim most jobs per claim call
 * @param visibility lease length per delivery, or null for each job's own
 * @param idleWait the longest the worker blocks on Redis waiting for a wake-up before claiming
 *     again (default 30 s); every path that makes a job ready pushes a wake-up, so this only bounds
 *     the cost of a lost one
 * @param shutdownTimeout how long {@link Worker#close()} waits for running handlers
 * @param autoExtend keep extending the lease of every job the worker holds, waiting for a thread or
 *     running, whenever half of it is left
 */
public record WorkerOptions(
    int concurrency,
    int prefetch,
    int maxClaim,
    Duration visibility,
    Duration idleWait,
    Duration shutdownTimeout,
    boolean autoExtend) {

  /**
   * Checks every option.
   *
   * @param concurrency handler threads, 1 to 10,000
   * @param prefetch jobs held beyond the handler threads at most, 0 to 100,000
   * @param maxClaim most jobs per claim call, 1 to 1000
   * @param visibility lease length per delivery, 1 ms to {@link JobSpec#MAX_DURATION}, or null for
   *     each job's own
   * @param idleWait 10 ms to 60 s
   * @param shutdownTimeout zero or positive
   * @param autoExtend whether leases are extended while the worker holds the job
   * @throws InvalidArgumentException naming the option that is out of range
   */
  public WorkerOptions {
    if (concurrency < 1 || concurrency > 10_000) {
      throw new InvalidArgumentException(
          "concurrency", "must be between 1 and 10000, was " + concurrency);
    }
    if (prefetch < 0 || prefetch > 100_000) {
      throw new InvalidArgumentException(
          "prefetch", "must be between 0 and 100000, was " + prefetch);
    }
    if (maxClaim < 1 || maxClaim > 1000) {
      throw new InvalidArgumentException("maxClaim", "must be between 1 and 1000, was " + maxClaim);
    }
    JobSpec.Builder.checkPositive("visibility", visibility);
    if (idleWait == null || idleWait.toMillis() < 10 || idleWait.toSeconds() > 60) {
      throw new InvalidArgumentException("idleWait", "must be between 10 ms and 60 s");
    }
    if (shutdownTimeout == null || shutdownTimeout.isNegative()) {
      throw new InvalidArgumentException("shutdownTimeout", "must be zero or positive");
    }
  }

  /**
   * The options of {@link Queue#worker(JobHandler)}: 4 handler threads, an adaptive prefetch of up
   * to {@value Builder#DEFAULT_PREFETCH}, claims of up to 100, each job's own visibility, a 30 s
   * idle wait and shutdown timeout, leases extended.
   *
   * @return the defaults
   */
  public static WorkerOptions defaults() {
    return builder().build();
  }

  /**
   * A builder holding the {@link #defaults()}.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link WorkerOptions}. */
  public static final class Builder {
    private int concurrency = 4;

    /** The default most jobs held beyond the handler threads. */
    public static final int DEFAULT_PREFETCH = 1000;

    private int prefetch = DEFAULT_PREFETCH;
    private int maxClaim = 100;
    private Duration visibility;
    private Duration idleWait = Duration.ofSeconds(30);
    private Duration shutdownTimeout = Duration.ofSeconds(30);
    private boolean autoExtend = true;

    private Builder() {}

    /**
     * Handler threads (default 4).
     *
     * @param concurrency 1 to 10,000, checked by {@link #build()}
     * @return this builder
     */
    public Builder concurrency(int concurrency) {
      this.concurrency = concurrency;
      return this;
    }

    /**
     * The most jobs the worker may hold leased beyond its handler threads (default {@value
     * #DEFAULT_PREFETCH}); it holds fewer when its handlers are slow.
     *
     * @param prefetch 0 (no more jobs than threads) to 100,000, checked by {@link #build()}
     * @return this builder
     */
    public Builder prefetch(int prefetch) {
      this.prefetch = prefetch;
      return this;
    }

    /**
     * Most jobs per claim call (default 100).
     *
     * @param maxClaim 1 to 1000, checked by {@link #build()}
     * @return this builder
     */
    public Builder maxClaim(int maxClaim) {
      this.maxClaim = maxClaim;
      return this;
    }

    /**
     * Lease length per delivery, instead of each job's own (default: each job's own).
     *
     * @param visibility 1 ms to {@link JobSpec#MAX_DURATION}, or null for each job's own; checked
     *     by {@link #build()}
     * @return this builder
     */
    public Builder visibility(Duration visibility) {
      this.visibility = visibility;
      return this;
    }

    /**
     * The longest the worker blocks on Redis waiting for a wake-up before claiming again (default
     * 30 s).
     *
     * @param idleWait 10 ms to 60 s, checked by {@link #build()}
     * @return this builder
     */
    public Builder idleWait(Duration idleWait) {
      this.idleWait = idleWait;
      return this;
    }

    /**
     * How long {@link Worker#close()} waits for running handlers (default 30 s).
     *
     * @param shutdownTimeout zero or positive, checked by {@link #build()}
     * @return this builder
     */
    public Builder shutdownTimeout(Duration shutdownTimeout) {
      this.shutdownTimeout = shutdownTimeout;
      return this;
    }

    /**
     * Whether the lease of every job the worker holds is extended whenever half of it is left
     * (default true). Without it, a job whose lease ran out while it waited for a thread is not
     * started.
     *
     * @param autoExtend false to let leases run out
     * @return this builder
     */
    public Builder autoExtend(boolean autoExtend) {
      this.autoExtend = autoExtend;
      return this;
    }

    /**
     * Validates and builds.
     *
     * @return the options
     * @throws InvalidArgumentException naming the option that is out of range
     */
    public WorkerOptions build() {
      return new WorkerOptions(
          concurrency, prefetch, maxClaim, visibility, idleWait, shutdownTimeout, autoExtend);
    }
  }
}
