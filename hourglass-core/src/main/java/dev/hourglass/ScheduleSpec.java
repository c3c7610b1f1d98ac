package dev.hourglass;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link Schedules#put} writes: a schedule's id, its timing (a Unix cron expression in a time
 * zone, or a fixed interval), the payload of every occurrence, the options of its jobs, and when it
 * starts and ends. Arguments are checked by {@link Schedules#put}, which throws {@link
 * InvalidArgumentException} naming the field.
 *
 * @param <T> the payload type of the queue
 */
public final class ScheduleSpec<T> {
  private final String id;
  private final String cron;
  private final ZoneId zone;
  private final Duration every;
  private final T payload;
  private final Instant startAt;
  private final Instant endAt;
  private final Integer maxAttempts;
  private final Backoff backoff;
  private final Duration visibility;
  private final Duration ttl;
  private final Integer priority;

  private ScheduleSpec(Builder<T> b) {
    this.id = b.id;
    this.cron = b.cron;
    this.zone = b.zone;
    this.every = b.every;
    this.payload = b.payload;
    this.startAt = b.startAt;
    this.endAt = b.endAt;
    this.maxAttempts = b.maxAttempts;
    this.backoff = b.backoff;
    this.visibility = b.visibility;
    this.ttl = b.ttl;
    this.priority = b.priority;
  }

  /**
   * A schedule of a Unix cron expression (5 fields: minute, hour, day of month, month, day of
   * week), its occurrences following the wall clock of {@code zone}, daylight saving included.
   *
   * @param id the schedule id, 1 to 100 of A-Z a-z 0-9 . _ -
   * @param cron the expression
   * @param zone the time zone
   * @param payload the payload of every occurrence
   * @param <T> the payload type
   * @return a builder for the options
   */
  public static <T> Builder<T> cron(String id, String cron, ZoneId zone, T payload) {
    Builder<T> b = new Builder<>(id, payload);
    b.cron = cron;
    b.zone = zone;
    return b;
  }

  /**
   * A schedule of a fixed interval, counted from its start (by default its creation).
   *
   * @param id the schedule id, 1 to 100 of A-Z a-z 0-9 . _ -
   * @param every the interval, at least 1 s
   * @param payload the payload of every occurrence
   * @param <T> the payload type
   * @return a builder for the options
   */
  public static <T> Builder<T> every(String id, Duration every, T payload) {
    Builder<T> b = new Builder<>(id, payload);
    b.every = every;
    return b;
  }

  /**
   * @return the schedule id
   */
  public String id() {
    return id;
  }

  /**
   * @return the cron expression, for a cron schedule
   */
  public Optional<String> cron() {
    return Optional.ofNullable(cron);
  }

  /**
   * @return the time zone of a cron schedule (UTC unless given)
   */
  public ZoneId zone() {
    return zone == null ? ZoneId.of("UTC") : zone;
  }

  /**
   * @return the interval, for a schedule of a fixed interval
   */
  public Optional<Duration> every() {
    return Optional.ofNullable(every);
  }

  /**
   * @return the payload of every occurrence
   */
  public T payload() {
    return payload;
  }

  /**
   * @return no occurrence before it
   */
  public Optional<Instant> startAt() {
    return Optional.ofNullable(startAt);
  }

  /**
   * @return no occurrence after it
   */
  public Optional<Instant> endAt() {
    return Optional.ofNullable(endAt);
  }

  /**
   * @return the occurrences' deliveries before they go dead, or the queue's default
   */
  public Optional<Integer> maxAttempts() {
    return Optional.ofNullable(maxAttempts);
  }

  /**
   * @return the occurrences' retry delays, or the queue's default
   */
  public Optional<Backoff> backoff() {
    return Optional.ofNullable(backoff);
  }

  /**
   * @return the occurrences' lease length, or the queue's default
   */
  public Optional<Duration> visibility() {
    return Optional.ofNullable(visibility);
  }

  /**
   * @return how long after its time an occurrence not acked is dropped, or the queue's default
   */
  public Optional<Duration> ttl() {
    return Optional.ofNullable(ttl);
  }

  /**
   * @return the occurrences' priority 0..9, or the queue's default
   */
  public Optional<Integer> priority() {
    return Optional.ofNullable(priority);
  }

  /**
   * The options of a schedule.
   *
   * @param <T> the payload type
   */
  public static final class Builder<T> {
    private final String id;
    private final T payload;
    private String cron;
    private ZoneId zone;
    private Duration every;
    private Instant startAt;
    private Instant endAt;
    private Integer maxAttempts;
    private Backoff backoff;
    private Duration visibility;
    private Duration ttl;
    private Integer priority;

    private Builder(String id, T payload) {
      this.id = id;
      this.payload = payload;
    }

    /**
     * @param z the time zone a cron expression follows (an interval keeps it as written only)
     * @return this builder
     */
    public Builder<T> zone(ZoneId z) {
      this.zone = z;
      return this;
    }

    /**
     * @param at no occurrence before it (a fixed interval counts from it)
     * @return this builder
     */
    public Builder<T> startAt(Instant at) {
      this.startAt = at;
      return this;
    }

    /**
     * @param at no occurrence after it
     * @return this builder
     */
    public Builder<T> endAt(Instant at) {
      this.endAt = at;
      return this;
    }

    /**
     * @param n deliveries of an occurrence before it goes dead, 1..1000
     * @return this builder
     */
    public Builder<T> maxAttempts(int n) {
      this.maxAttempts = n;
      return this;
    }

    /**
     * @param b retry delays of an occurrence
     * @return this builder
     */
    public Builder<T> backoff(Backoff b) {
      this.backoff = Objects.requireNonNull(b, "backoff");
      return this;
    }

    /**
     * @param d lease length of an occurrence's deliveries
     * @return this builder
     */
    public Builder<T> visibility(Duration d) {
      this.visibility = d;
      return this;
    }

    /**
     * @param d an occurrence not acked within this of its time (or of its enqueue, if later) is
     *     dropped
     * @return this builder
     */
    public Builder<T> ttl(Duration d) {
      this.ttl = d;
      return this;
    }

    /**
     * @param p the occurrences' priority, 0..9 (higher first)
     * @return this builder
     */
    public Builder<T> priority(int p) {
      this.priority = p;
      return this;
    }

    /**
     * @return the spec
     */
    public ScheduleSpec<T> build() {
      return new ScheduleSpec<>(this);
    }
  }
}
