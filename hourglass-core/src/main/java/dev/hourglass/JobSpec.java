package dev.hourglass;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What to enqueue: a payload, when to run it, and how to retry it. Immutable; build with {@link
 * #builder()}. Fields left unset take the queue's defaults ({@link QueueSettings}).
 *
 * <pre>{@code
 * JobSpec spec = JobSpec.builder()
 *     .id("order-42")
 *     .payload("{\"order\":42}")
 *     .delay(Duration.ofMinutes(30))
 *     .build();
 * }</pre>
 */
public final class JobSpec {
  /** Job ids: 1 to 128 of {@code A-Z a-z 0-9 . _ : -}. */
  public static final Pattern ID_PATTERN = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

  /**
   * True when {@code id} is a valid job id, the same test as {@link #ID_PATTERN} without a regex
   * (ids are checked on every ack, where the regex showed up in profiles).
   *
   * @param id the text to test, possibly null
   * @return whether it is 1 to 128 of {@code A-Z a-z 0-9 . _ : -}
   */
  public static boolean isValidId(String id) {
    if (id == null || id.isEmpty() || id.length() > 128) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '.'
              || c == '_'
              || c == ':'
              || c == '-';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** The most attempts a job may have. */
  public static final int MAX_ATTEMPTS_LIMIT = 1000;

  /**
   * The highest priority a job may have; the lowest is 0. Among due jobs a claim takes the highest
   * priority first, strictly: while higher-priority jobs keep coming, lower ones wait.
   */
  public static final int MAX_PRIORITY = 9;

  /** The longest visibility timeout or ttl a job may have, 2^32-1 ms (about 49 days). */
  public static final Duration MAX_DURATION = Duration.ofMillis(0xFFFF_FFFFL);

  /** The earliest {@link Builder#runAt(Instant) runAt} accepted, the epoch (epoch ms 0). */
  public static final Instant MIN_RUN_AT = Instant.EPOCH;

  /**
   * The latest {@link Builder#runAt(Instant) runAt} accepted, epoch ms 2^47-1 (in the year 6429):
   * records keep times as 48-bit signed milliseconds.
   */
  public static final Instant MAX_RUN_AT = Instant.ofEpochMilli((1L << 47) - 1);

  private static final String RUN_AT_RANGE =
      String.format(
          Locale.ROOT,
          "must be from %s to %s (epoch ms %d to %d)",
          MIN_RUN_AT,
          MAX_RUN_AT,
          MIN_RUN_AT.toEpochMilli(),
          MAX_RUN_AT.toEpochMilli());

  /** The longest {@link Builder#delay(Duration) delay} accepted: 100 years of 365 days. */
  public static final Duration MAX_DELAY = Duration.ofDays(100 * 365);

  private final byte[] payload;
  private final String id;
  private final Duration delay;
  private final Instant runAt;
  private final Integer maxAttempts;
  private final Backoff backoff;
  private final Duration visibility;
  private final Duration ttl;
  private final Integer priority;

  private JobSpec(Builder b) {
    this.payload = b.payload;
    this.id = b.id;
    this.delay = b.delay;
    this.runAt = b.runAt;
    this.maxAttempts = b.maxAttempts;
    this.backoff = b.backoff;
    this.visibility = b.visibility;
    this.ttl = b.ttl;
    this.priority = b.priority;
  }

  /**
   * A builder with nothing set: the payload is required, every other field takes the queue's
   * default.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A job with this payload, due now, with the queue's defaults.
   *
   * @param payload the payload bytes (copied)
   * @return the spec
   * @throws InvalidArgumentException when the payload is null
   */
  public static JobSpec of(byte[] payload) {
    return builder().payload(payload).build();
  }

  /**
   * A job with this UTF-8 payload, due after {@code delay}, with the queue's defaults.
   *
   * @param payload the payload as text
   * @param delay from the Redis server's now; null means now
   * @return the spec
   * @throws InvalidArgumentException when the payload is null or the delay negative or over 100
   *     years
   */
  public static JobSpec of(String payload, Duration delay) {
    return builder().payload(payload).delay(delay).build();
  }

  /**
   * The payload bytes.
   *
   * @return a copy of them
   */
  public byte[] payload() {
    return payload.clone();
  }

  /**
   * The payload's length in bytes.
   *
   * @return the length, without copying the payload
   */
  public int payloadSize() {
    return payload.length;
  }

  /**
   * The id to use.
   *
   * @return the id, or empty to have one generated at enqueue
   */
  public Optional<String> id() {
    return Optional.ofNullable(id);
  }

  /**
   * Delay from the Redis server's now.
   *
   * @return the delay; empty when {@link #runAt()} is set or the job is due now
   */
  public Optional<Duration> delay() {
    return Optional.ofNullable(delay);
  }

  /**
   * Absolute due time, compared with the Redis server clock; a past time means due now.
   *
   * @return the due time, or empty when the job is due after {@link #delay()}
   */
  public Optional<Instant> runAt() {
    return Optional.ofNullable(runAt);
  }

  /**
   * Deliveries the job gets before it goes dead.
   *
   * @return 1 to {@value #MAX_ATTEMPTS_LIMIT}, or empty for the queue's default
   */
  public Optional<Integer> maxAttempts() {
    return Optional.ofNullable(maxAttempts);
  }

  /**
   * Delays between the job's retries.
   *
   * @return the job's own backoff, or empty for the queue's default (applied at retry time)
   */
  public Optional<Backoff> backoff() {
    return Optional.ofNullable(backoff);
  }

  /**
   * Lease length of each delivery of this job.
   *
   * @return 1 ms to {@link #MAX_DURATION}, or empty for the queue's default
   */
  public Optional<Duration> visibility() {
    return Optional.ofNullable(visibility);
  }

  /**
   * The job is dropped if not acked within this time of its creation.
   *
   * @return 1 ms to {@link #MAX_DURATION}, or empty for the queue's default
   */
  public Optional<Duration> ttl() {
    return Optional.ofNullable(ttl);
  }

  /**
   * The job's priority: among the jobs that are due, a claim takes the highest priority first, then
   * the earliest due, then the lowest id. It never makes a job run before its due time, and the job
   * keeps it across retries.
   *
   * @return 0 to {@value #MAX_PRIORITY}, or empty for the queue's default
   */
  public Optional<Integer> priority() {
    return Optional.ofNullable(priority);
  }

  /**
   * A builder holding this spec's values, e.g. to enqueue a variant under another id.
   *
   * @return a new builder with every field of this spec
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.payload = payload;
    b.id = id;
    b.delay = delay;
    b.runAt = runAt;
    b.maxAttempts = maxAttempts;
    b.backoff = backoff;
    b.visibility = visibility;
    b.ttl = ttl;
    b.priority = priority;
    return b;
  }

  @Override
  public String toString() {
    return "JobSpec{id="
        + id
        + ", payload="
        + payload.length
        + " bytes, delay="
        + delay
        + ", runAt="
        + runAt
        + "}";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof JobSpec s
        && Arrays.equals(payload, s.payload)
        && java.util.Objects.equals(id, s.id)
        && java.util.Objects.equals(delay, s.delay)
        && java.util.Objects.equals(runAt, s.runAt)
        && java.util.Objects.equals(maxAttempts, s.maxAttempts)
        && java.util.Objects.equals(backoff, s.backoff)
        && java.util.Objects.equals(visibility, s.visibility)
        && java.util.Objects.equals(ttl, s.ttl)
        && java.util.Objects.equals(priority, s.priority);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(id, delay, runAt, Arrays.hashCode(payload));
  }

  /**
   * Builds a {@link JobSpec}; {@link #build()} validates every field and names the one it refuses.
   */
  public static final class Builder {
    private byte[] payload;
    private String id;
    private Duration delay;
    private Instant runAt;
    private Integer maxAttempts;
    private Backoff backoff;
    private Duration visibility;
    private Duration ttl;
    private Integer priority;

    private Builder() {}

    /**
     * The payload bytes (copied). Required.
     *
     * @param payload the bytes; null leaves the payload unset, which {@link #build()} refuses
     * @return this builder
     */
    public Builder payload(byte[] payload) {
      this.payload = payload == null ? null : payload.clone();
      return this;
    }

    /**
     * The payload as UTF-8 text, e.g. JSON.
     *
     * @param payload the text; null leaves the payload unset, which {@link #build()} refuses
     * @return this builder
     */
    public Builder payload(String payload) {
      this.payload = payload == null ? null : payload.getBytes(StandardCharsets.UTF_8);
      return this;
    }

    /**
     * The job id; enqueueing a second live job with the same id is refused. Generated when not set.
     *
     * @param id 1 to 128 of {@code A-Z a-z 0-9 . _ : -} (checked by {@link #build()}), or null
     * @return this builder
     */
    public Builder id(String id) {
      this.id = id;
      return this;
    }

    /**
     * Run after this delay (from the Redis server's clock). Excludes {@link #runAt(Instant)}.
     *
     * @param delay zero to 100 years (checked by {@link #build()}), or null for now
     * @return this builder
     */
    public Builder delay(Duration delay) {
      this.delay = delay;
      return this;
    }

    /**
     * Run at this time (compared with the Redis server's clock); the past means now. Excludes
     * delay.
     *
     * @param runAt from {@link JobSpec#MIN_RUN_AT} to {@link JobSpec#MAX_RUN_AT} (checked by {@link
     *     #build()}), or null
     * @return this builder
     */
    public Builder runAt(Instant runAt) {
      this.runAt = runAt;
      return this;
    }

    /**
     * Deliveries before the job goes dead.
     *
     * @param maxAttempts 1 to {@value JobSpec#MAX_ATTEMPTS_LIMIT}, checked by {@link #build()}
     * @return this builder
     */
    public Builder maxAttempts(int maxAttempts) {
      this.maxAttempts = maxAttempts;
      return this;
    }

    /**
     * Delays between the job's retries, instead of the queue's default.
     *
     * @param backoff the job's backoff, or null for the queue's
     * @return this builder
     */
    public Builder backoff(Backoff backoff) {
      this.backoff = backoff;
      return this;
    }

    /**
     * Lease length of each delivery: an unacked job comes back after it.
     *
     * @param visibility 1 ms to {@link JobSpec#MAX_DURATION} (checked by {@link #build()}), or null
     *     for the queue's default
     * @return this builder
     */
    public Builder visibility(Duration visibility) {
      this.visibility = visibility;
      return this;
    }

    /**
     * Drop the job if it is not acked within this time of its creation.
     *
     * @param ttl 1 ms to {@link JobSpec#MAX_DURATION} (checked by {@link #build()}), or null for
     *     the queue's default
     * @return this builder
     */
    public Builder ttl(Duration ttl) {
      this.ttl = ttl;
      return this;
    }

    /**
     * The job's priority, instead of the queue's default: due jobs of a higher priority are claimed
     * first (strictly: under a sustained load of higher-priority jobs, lower ones wait).
     *
     * @param priority 0 to {@value JobSpec#MAX_PRIORITY}, checked by {@link #build()}
     * @return this builder
     */
    public Builder priority(int priority) {
      this.priority = priority;
      return this;
    }

    /**
     * Validates and builds.
     *
     * @return the spec
     * @throws InvalidArgumentException naming the field that is missing or out of range
     */
    public JobSpec build() {
      if (payload == null) {
        throw new InvalidArgumentException("payload", "is required");
      }
      if (id != null && !isValidId(id)) {
        throw new InvalidArgumentException(
            "id",
            "must be 1 to 128 characters of A-Z a-z 0-9 . _ : - (was '" + abbreviate(id) + "')");
      }
      if (delay != null && runAt != null) {
        throw new InvalidArgumentException("delay", "set either delay or runAt, not both");
      }
      checkRunAt(runAt);
      if (delay != null && delay.isNegative()) {
        throw new InvalidArgumentException("delay", "must not be negative, was " + delay);
      }
      if (delay != null && delay.compareTo(MAX_DELAY) > 0) {
        throw new InvalidArgumentException(
            "delay", "must be at most 100 years (" + MAX_DELAY.toMillis() + " ms), was " + delay);
      }
      if (maxAttempts != null && (maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS_LIMIT)) {
        throw new InvalidArgumentException(
            "maxAttempts", "must be between 1 and " + MAX_ATTEMPTS_LIMIT + ", was " + maxAttempts);
      }
      checkPositive("visibility", visibility);
      checkPositive("ttl", ttl);
      if (priority != null) {
        checkPriority(priority);
      }
      return new JobSpec(this);
    }

    /**
     * Refuses a due time outside {@link #MIN_RUN_AT} to {@link #MAX_RUN_AT}, the one rule for
     * {@code runAt} (the HTTP API's included).
     *
     * @param runAt the due time, or null (accepted)
     * @throws InvalidArgumentException naming {@code runAt}
     */
    public static void checkRunAt(Instant runAt) {
      if (runAt != null && (runAt.isBefore(MIN_RUN_AT) || runAt.isAfter(MAX_RUN_AT))) {
        throw new InvalidArgumentException("runAt", RUN_AT_RANGE + ", was " + runAt);
      }
    }

    /**
     * Refuses a priority outside 0 to {@link #MAX_PRIORITY}, the one rule for a priority (a queue's
     * default and the HTTP API's included).
     *
     * @param priority the priority
     * @throws InvalidArgumentException naming {@code priority}
     */
    public static void checkPriority(int priority) {
      if (priority < 0 || priority > MAX_PRIORITY) {
        throw new InvalidArgumentException(
            "priority", "must be between 0 and " + MAX_PRIORITY + ", was " + priority);
      }
    }

    static void checkPositive(String field, Duration d) {
      if (d != null && (d.toMillis() < 1 || d.compareTo(MAX_DURATION) > 0)) {
        throw new InvalidArgumentException(
            field,
            "must be between 1 ms and "
                + MAX_DURATION.toMillis()
                + " ms, was "
                + d.toMillis()
                + " ms");
      }
    }

    private static String abbreviate(String s) {
      return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }
  }
}
