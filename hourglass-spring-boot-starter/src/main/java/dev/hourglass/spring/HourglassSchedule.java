package dev.hourglass.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a schedule (recurring jobs, {@link dev.hourglass.Schedules}) of the queue of the {@link
 * HourglassListener} method beside it: every instance of the application puts it when its context
 * starts, before its listeners start. A put is idempotent: instances starting at once, or again
 * after restarts, leave one schedule and never make two jobs for one occurrence, and a changed
 * declaration replaces the schedule (its pending occurrence keeps its time when the timing is
 * unchanged). Removing the annotation does not delete the schedule ({@code
 * queue.schedules().delete(id)} does). Every attribute takes {@code ${...}} placeholders.
 *
 * <pre>{@code
 * @HourglassListener(queue = "reports")
 * @HourglassSchedule(id = "nightly", cron = "30 2 * * *", zone = "Europe/Berlin",
 *     payload = "{\"kind\": \"daily\"}")
 * void report(Report report) { ... }
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface HourglassSchedule {

  /**
   * The schedule id, 1 to 100 of {@code A-Z a-z 0-9 . _ -}; its occurrences are the jobs {@code
   * <id>:<occurrence time in epoch ms>}.
   *
   * @return the schedule id
   */
  String id();

  /**
   * A Unix cron expression of 5 fields (minute hour day-of-month month day-of-week); exactly one of
   * {@code cron} and {@code every}.
   *
   * @return the expression, or empty
   */
  String cron() default "";

  /**
   * The IANA time zone the cron expression follows, daylight saving included.
   *
   * @return the zone id
   */
  String zone() default "UTC";

  /**
   * A fixed interval, at least 1 s: {@code 30s}, {@code 5m}, {@code 1h}, {@code 1d}, {@code 1500ms}
   * or ISO-8601 ({@code PT30S}); exactly one of {@code cron} and {@code every}.
   *
   * @return the interval, or empty
   */
  String every() default "";

  /**
   * The payload of every occurrence, as the text stored: JSON for a listener of an object type, the
   * text itself for a {@code String} listener (as {@link HourglassTemplate} stores a string).
   *
   * @return the payload's text
   */
  String payload() default "null";
}
