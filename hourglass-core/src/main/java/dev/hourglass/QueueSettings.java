package dev.hourglass;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A queue's settings: its layout (partitions and sub-pools, fixed when the queue is created), the
 * defaults jobs take when their {@link JobSpec} leaves a field unset, and dead-letter retention.
 * Immutable; build with {@link #builder()}; {@link #defaults()} are the settings a queue gets when
 * its first enqueue creates it.
 */
public final class QueueSettings {
  /** Partitions of a queue created with the defaults: one, on one Redis hash tag. */
  public static final int DEFAULT_PARTITIONS = 1;

  /**
   * Pool hashes per partition by default; 40 keep the largest key near 78 MB at 10M pending jobs.
   */
  public static final int DEFAULT_POOLS = 40;

  /**
   * Most pools a partition may have: the last byte of a job's member names its pool, below every
   * character an id may hold (see {@code includes/partition.lua}).
   */
  public static final int MAX_POOLS = 45;

  /** Slot width by default: far-future jobs are kept in one list per minute of due time. */
  public static final Duration DEFAULT_SLOT_WIDTH = Duration.ofSeconds(60);

  /** Deliveries a job gets by default before it goes dead. */
  public static final int DEFAULT_MAX_ATTEMPTS = 5;

  /** Retry delays by default: exponential from 1 s, at most 1 h, with 20% jitter. */
  public static final Backoff DEFAULT_BACKOFF =
      Backoff.exponential(Duration.ofSeconds(1), Duration.ofHours(1), 0.2);

  /** Lease length of a delivery by default: an unsettled job comes back after it. */
  public static final Duration DEFAULT_VISIBILITY = Duration.ofSeconds(30);

  /** Dead jobs are kept this long by default. */
  public static final Duration DEFAULT_DEAD_MAX_AGE = Duration.ofDays(14);

  /** Dead jobs kept per partition by default (oldest deleted first). */
  public static final int DEFAULT_DEAD_MAX_COUNT = 100_000;

  /**
   * The payload size from which payloads are stored compressed unless a client or queue sets
   * another. Measured on order documents ({@code hourglass-bench/run compression}, docs/
   * BENCHMARKS.md, "Compression"): from 128 bytes the queue's dictionary brings a payload to about
   * 0.4 of its size for about a microsecond each way; below, the job's own hundred-odd bytes in
   * Redis outweigh what is saved.
   */
  public static final int DEFAULT_COMPRESS_ABOVE = 128;

  /**
   * The largest compression threshold a queue or a client may set (64 MiB, no payload is larger).
   */
  public static final int MAX_COMPRESS_ABOVE = 64 * 1024 * 1024;

  /** The most replicas a write may be made to wait for. */
  public static final int MAX_REPLICA_ACKS = 16;

  private static final Pattern ATTRIBUTE_KEY = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final int MAX_ATTRIBUTE_CHARS = 64 * 1024;

  private static final QueueSettings DEFAULTS = builder().build();

  private final int partitions;
  private final int pools;
  private final Duration slotWidth;
  private final int maxAttempts;
  private final Backoff backoff;
  private final Duration visibility;
  private final Duration ttl;
  private final int priority;
  private final Duration deadMaxAge;
  private final int deadMaxCount;
  private final Integer replicaAcks;
  private final Integer compressAbove;
  private final Map<String, String> attributes;
  private final QueueLimits limits;

  private QueueSettings(Builder b) {
    this.partitions = b.partitions;
    this.pools = b.pools;
    this.slotWidth = b.slotWidth;
    this.maxAttempts = b.maxAttempts;
    this.backoff = b.backoff;
    this.visibility = b.visibility;
    this.ttl = b.ttl;
    this.priority = b.priority;
    this.deadMaxAge = b.deadMaxAge;
    this.deadMaxCount = b.deadMaxCount;
    this.replicaAcks = b.replicaAcks;
    this.compressAbove = b.compressAbove;
    this.attributes = Collections.unmodifiableMap(new TreeMap<>(b.attributes));
    this.limits = b.limits;
  }

  /**
   * The settings a queue gets when its first use creates it, unless the client was built with
   * others ({@link HourglassBuilder#defaultQueueSettings}).
   *
   * @return the defaults of the constants above, no ttl, no attribute, and replica acknowledgement
   *     and compression following the client
   */
  public static QueueSettings defaults() {
    return DEFAULTS;
  }

  /**
   * A builder starting from {@link #defaults()}.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A builder holding these settings, e.g. to change one of them.
   *
   * @return a new builder with every value of these settings
   */
  public Builder toBuilder() {
    return new Builder()
        .partitions(partitions)
        .pools(pools)
        .slotWidth(slotWidth)
        .maxAttempts(maxAttempts)
        .backoff(backoff)
        .visibility(visibility)
        .ttl(ttl)
        .priority(priority)
        .deadMaxAge(deadMaxAge)
        .deadMaxCount(deadMaxCount)
        .replicaAcks(replicaAcks)
        .compressAbove(compressAbove)
        .attributes(attributes)
        .limits(limits);
  }

  /**
   * Partitions the queue is split into (each its own Redis hash tag); fixed at creation.
   *
   * @return 1 to 1024
   */
  public int partitions() {
    return partitions;
  }

  /**
   * Sub-pools (hashes holding job records) per partition; fixed at creation.
   *
   * @return 1 to {@value #MAX_POOLS}
   */
  public int pools() {
    return pools;
  }

  /**
   * Width of the time slots that hold far-future jobs, and how far ahead the promoter loads them.
   *
   * @return 100 ms to 24 h
   */
  public Duration slotWidth() {
    return slotWidth;
  }

  /**
   * Deliveries a job gets before it goes dead, when its {@link JobSpec} sets none (taken when the
   * job is enqueued).
   *
   * @return 1 to {@value JobSpec#MAX_ATTEMPTS_LIMIT}
   */
  public int maxAttempts() {
    return maxAttempts;
  }

  /**
   * The priority of a job whose {@link JobSpec} sets none (taken when the job is enqueued).
   *
   * @return 0 (the default) to {@value JobSpec#MAX_PRIORITY}
   */
  public int priority() {
    return priority;
  }

  /**
   * Delays between a job's retries, when its {@link JobSpec} sets none. Such a job takes the
   * queue's backoff when a retry is scheduled, so a change reaches the jobs already waiting.
   *
   * @return the queue's default backoff
   */
  public Backoff backoff() {
    return backoff;
  }

  /**
   * Lease length of a delivery, when the claim sets none and the job's {@link JobSpec} set none
   * (taken when the job is enqueued).
   *
   * @return 1 ms to {@link JobSpec#MAX_DURATION}
   */
  public Duration visibility() {
    return visibility;
  }

  /**
   * Default job ttl, taken when a job whose spec sets none is enqueued: a job not acked within this
   * time of its creation is dropped.
   *
   * @return the ttl, or empty for none
   */
  public Optional<Duration> ttl() {
    return Optional.ofNullable(ttl);
  }

  /**
   * Dead jobs older than this are deleted; {@link Duration#ZERO} keeps them.
   *
   * @return zero or positive
   */
  public Duration deadMaxAge() {
    return deadMaxAge;
  }

  /**
   * At most this many dead jobs are kept per partition (oldest deleted first); 0 keeps all.
   *
   * @return zero or positive
   */
  public int deadMaxCount() {
    return deadMaxCount;
  }

  /**
   * How many replicas must confirm this queue's enqueues, acks, nacks and cancels before they
   * answer ({@code WAIT}; 0: none); empty when the queue follows the client's {@link
   * HourglassBuilder#replicaAcks(int, Duration)}.
   *
   * @return 0 to {@value #MAX_REPLICA_ACKS}, or empty
   */
  public OptionalInt replicaAcks() {
    return replicaAcks == null ? OptionalInt.empty() : OptionalInt.of(replicaAcks);
  }

  /**
   * The payload size in bytes from which this queue's payloads are stored compressed (0: never);
   * empty when the queue follows the client's {@link HourglassBuilder#compressAbove(int)}.
   *
   * @return 0 to {@value #MAX_COMPRESS_ABOVE}, or empty
   */
  public OptionalInt compressAbove() {
    return compressAbove == null ? OptionalInt.empty() : OptionalInt.of(compressAbove);
  }

  /**
   * Named values stored with the queue for tools built on Hourglass (the server keeps a queue's
   * push delivery here). Hourglass itself does not read them. Sorted by key; unmodifiable.
   *
   * @return the attributes by key, possibly none
   */
  public Map<String, String> attributes() {
    return attributes;
  }

  /**
   * The queue's flow-control limits: a rate and a concurrency that claims enforce inside Redis.
   *
   * @return the limits, or empty for none
   */
  public Optional<QueueLimits> limits() {
    return Optional.ofNullable(limits);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof QueueSettings s
        && partitions == s.partitions
        && pools == s.pools
        && slotWidth.equals(s.slotWidth)
        && maxAttempts == s.maxAttempts
        && backoff.equals(s.backoff)
        && visibility.equals(s.visibility)
        && java.util.Objects.equals(ttl, s.ttl)
        && priority == s.priority
        && deadMaxAge.equals(s.deadMaxAge)
        && deadMaxCount == s.deadMaxCount
        && java.util.Objects.equals(replicaAcks, s.replicaAcks)
        && java.util.Objects.equals(compressAbove, s.compressAbove)
        && attributes.equals(s.attributes)
        && java.util.Objects.equals(limits, s.limits);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(partitions, pools, maxAttempts, backoff, visibility, ttl);
  }

  @Override
  public String toString() {
    return "QueueSettings{partitions="
        + partitions
        + ", pools="
        + pools
        + ", slotWidth="
        + slotWidth
        + ", maxAttempts="
        + maxAttempts
        + ", backoff="
        + backoff
        + ", visibility="
        + visibility
        + ", ttl="
        + ttl
        + ", priority="
        + priority
        + ", deadMaxAge="
        + deadMaxAge
        + ", deadMaxCount="
        + deadMaxCount
        + ", replicaAcks="
        + replicaAcks
        + ", compressAbove="
        + compressAbove
        + ", attributes="
        + attributes.keySet()
        + ", limits="
        + limits
        + "}";
  }

  /**
   * Builds {@link QueueSettings}; unset fields take the defaults above; {@link #build()} validates.
   */
  public static final class Builder {
    private int partitions = DEFAULT_PARTITIONS;
    private int pools = DEFAULT_POOLS;
    private Duration slotWidth = DEFAULT_SLOT_WIDTH;
    private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
    private Backoff backoff = DEFAULT_BACKOFF;
    private Duration visibility = DEFAULT_VISIBILITY;
    private Duration ttl;
    private int priority;
    private Duration deadMaxAge = DEFAULT_DEAD_MAX_AGE;
    private int deadMaxCount = DEFAULT_DEAD_MAX_COUNT;
    private Integer replicaAcks;
    private Integer compressAbove;
    private final Map<String, String> attributes = new TreeMap<>();
    private QueueLimits limits;

    private Builder() {}

    /**
     * The queue's flow-control limits ({@link QueueLimits}); an update replaces them, and null (the
     * default) removes them.
     *
     * @param limits the limits, or null for none
     * @return this builder
     */
    public Builder limits(QueueLimits limits) {
      this.limits = limits;
      return this;
    }

    /**
     * Partitions to split the queue into, each on its own Redis hash tag (so a cluster spreads them
     * over its masters); fixed when the queue is created.
     *
     * @param partitions 1 to 1024, checked by {@link #build()}
     * @return this builder
     */
    public Builder partitions(int partitions) {
      this.partitions = partitions;
      return this;
    }

    /**
     * Pool hashes holding job records, per partition; fixed when the queue is created.
     *
     * @param pools 1 to {@value QueueSettings#MAX_POOLS}, checked by {@link #build()}
     * @return this builder
     */
    public Builder pools(int pools) {
      this.pools = pools;
      return this;
    }

    /**
     * Width of the time slots that hold far-future jobs, and how far ahead the promoter loads them.
     *
     * @param slotWidth 100 ms to 24 h, checked by {@link #build()}
     * @return this builder
     */
    public Builder slotWidth(Duration slotWidth) {
      this.slotWidth = slotWidth;
      return this;
    }

    /**
     * Deliveries a job gets before it goes dead, when its spec sets none (taken at enqueue).
     *
     * @param maxAttempts 1 to {@value JobSpec#MAX_ATTEMPTS_LIMIT}, checked by {@link #build()}
     * @return this builder
     */
    public Builder maxAttempts(int maxAttempts) {
      this.maxAttempts = maxAttempts;
      return this;
    }

    /**
     * The priority of a job whose spec sets none (taken at enqueue).
     *
     * @param priority 0 to {@value JobSpec#MAX_PRIORITY}, checked by {@link #build()}
     * @return this builder
     */
    public Builder priority(int priority) {
      this.priority = priority;
      return this;
    }

    /**
     * Delays between retries, when a job's spec sets none (taken when the retry is scheduled).
     *
     * @param backoff required, checked by {@link #build()}
     * @return this builder
     */
    public Builder backoff(Backoff backoff) {
      this.backoff = backoff;
      return this;
    }

    /**
     * Lease length of a delivery, when the claim sets none and the job's spec set none (taken at
     * enqueue).
     *
     * @param visibility 1 ms to {@link JobSpec#MAX_DURATION}, checked by {@link #build()}
     * @return this builder
     */
    public Builder visibility(Duration visibility) {
      this.visibility = visibility;
      return this;
    }

    /**
     * Default ttl for jobs whose spec sets none (taken at enqueue): a job not acked within this
     * time of its creation is dropped.
     *
     * @param ttl 1 ms to {@link JobSpec#MAX_DURATION}, or null for none; checked by {@link
     *     #build()}
     * @return this builder
     */
    public Builder ttl(Duration ttl) {
      this.ttl = ttl;
      return this;
    }

    /**
     * Dead jobs older than this are deleted.
     *
     * @param deadMaxAge zero (keep them) or positive, checked by {@link #build()}
     * @return this builder
     */
    public Builder deadMaxAge(Duration deadMaxAge) {
      this.deadMaxAge = deadMaxAge;
      return this;
    }

    /**
     * At most this many dead jobs are kept per partition, the oldest deleted first.
     *
     * @param deadMaxCount zero (keep all) or positive, checked by {@link #build()}
     * @return this builder
     */
    public Builder deadMaxCount(int deadMaxCount) {
      this.deadMaxCount = deadMaxCount;
      return this;
    }

    /**
     * Sets an attribute (see {@link QueueSettings#attributes()}). Attributes are stored by key: an
     * update replaces the values it names and keeps the others.
     *
     * @param key 1 to 64 of {@code A-Z a-z 0-9 . _ -}
     * @param value up to 64 KiB of text
     * @return this builder
     * @throws InvalidArgumentException when the key or the value is out of these bounds
     */
    public Builder attribute(String key, String value) {
      if (key == null || !ATTRIBUTE_KEY.matcher(key).matches()) {
        throw new InvalidArgumentException(
            "attributes", "a key must be 1 to 64 of A-Z a-z 0-9 . _ -, was " + key);
      }
      if (value == null || value.length() > MAX_ATTRIBUTE_CHARS) {
        throw new InvalidArgumentException(
            "attributes." + key, "must be text of at most " + MAX_ATTRIBUTE_CHARS + " chars");
      }
      attributes.put(key, value);
      return this;
    }

    /**
     * Replica-acknowledged writes for this queue: its enqueues, acks, nacks and cancels answer only
     * once {@code replicas} replicas hold them (0: never wait, whatever the client's default); null
     * (the default) follows the client's {@link HourglassBuilder#replicaAcks(int, Duration)}.
     *
     * @param replicas 0 to {@value QueueSettings#MAX_REPLICA_ACKS}, or null; checked by {@link
     *     #build()}
     * @return this builder
     */
    public Builder replicaAcks(Integer replicas) {
      this.replicaAcks = replicas;
      return this;
    }

    /**
     * Payloads of at least this many bytes are stored compressed with zstd when that makes them
     * smaller, with a dictionary trained on the queue's payloads once there is one (0: never); null
     * (the default) follows the client's {@link HourglassBuilder#compressAbove(int)}. Readers need
     * no setting: every payload is handed out as it was enqueued.
     *
     * @param bytes 0 to {@value QueueSettings#MAX_COMPRESS_ABOVE}, or null; checked by {@link
     *     #build()}
     * @return this builder
     */
    public Builder compressAbove(Integer bytes) {
      this.compressAbove = bytes;
      return this;
    }

    /**
     * Sets every attribute of the map, as {@link #attribute(String, String)} does.
     *
     * @param values keys and values within the bounds of {@link #attribute(String, String)}
     * @return this builder
     * @throws InvalidArgumentException when a key or a value is out of those bounds
     */
    public Builder attributes(Map<String, String> values) {
      values.forEach(this::attribute);
      return this;
    }

    /**
     * Validates and builds.
     *
     * @return the settings
     * @throws InvalidArgumentException naming the setting that is out of range
     */
    public QueueSettings build() {
      range("partitions", partitions, 1, 1024);
      range("pools", pools, 1, MAX_POOLS);
      range("maxAttempts", maxAttempts, 1, JobSpec.MAX_ATTEMPTS_LIMIT);
      JobSpec.Builder.checkPriority(priority);
      if (backoff == null) {
        throw new InvalidArgumentException("backoff", "is required");
      }
      if (slotWidth == null || slotWidth.toMillis() < 100 || slotWidth.toHours() > 24) {
        throw new InvalidArgumentException("slotWidth", "must be between 100 ms and 24 h");
      }
      if (visibility == null) {
        throw new InvalidArgumentException("visibility", "is required");
      }
      JobSpec.Builder.checkPositive("visibility", visibility);
      JobSpec.Builder.checkPositive("ttl", ttl);
      if (deadMaxAge == null || deadMaxAge.isNegative()) {
        throw new InvalidArgumentException("deadMaxAge", "must be zero (keep) or positive");
      }
      range("deadMaxCount", deadMaxCount, 0, Integer.MAX_VALUE);
      if (compressAbove != null) {
        range("compressAbove", compressAbove, 0, MAX_COMPRESS_ABOVE);
      }
      if (replicaAcks != null) {
        range("replicaAcks", replicaAcks, 0, MAX_REPLICA_ACKS);
      }
      return new QueueSettings(this);
    }

    private static void range(String field, int value, int min, int max) {
      if (value < min || value > max) {
        throw new InvalidArgumentException(
            field, "must be between " + min + " and " + max + ", was " + value);
      }
    }
  }
}
