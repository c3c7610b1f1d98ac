package dev.hourglass.internal;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import dev.hourglass.InvalidArgumentException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The occurrence times of a schedule's timing, computed in the client: a Unix cron expression (5
 * fields) in a time zone by cron-utils, which follows the zone's daylight saving (a wall-clock time
 * skipped by spring forward does not occur; one repeated by fall back occurs once), or a fixed
 * interval from an anchor. A pure function of the instant it counts from, so tests drive it with
 * any clock.
 */
final class ScheduleTimes {
  private static final CronParser UNIX =
      new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

  /** How many times a computation lists ahead: the state a schedule keeps in Redis. */
  static final int AHEAD = 16;

  private final ExecutionTime cron; // null for an interval
  private final ZoneId zone;
  private final long everyMs;
  private final long anchorMs;
  private final long startMs;
  private final long endMs;

  private ScheduleTimes(
      ExecutionTime cron, ZoneId zone, long everyMs, long anchorMs, long startMs, long endMs) {
    this.cron = cron;
    this.zone = zone;
    this.everyMs = everyMs;
    this.anchorMs = anchorMs;
    this.startMs = startMs;
    this.endMs = endMs;
  }

  /** The times of a definition (checked by {@link #parseCron} when it was written). */
  static ScheduleTimes of(ScheduleDefinition d) {
    long start = d.startAtMs() == null ? Long.MIN_VALUE : d.startAtMs();
    long end = d.endAtMs() == null ? Long.MAX_VALUE : d.endAtMs();
    if (d.cron() != null) {
      return new ScheduleTimes(
          ExecutionTime.forCron(parseCron(d.cron())), ZoneId.of(d.zone()), 0, 0, start, end);
    }
    return new ScheduleTimes(null, null, d.everyMs(), d.anchorMs(), start, end);
  }

  /** A cron expression, checked; {@link InvalidArgumentException} on field {@code cron}. */
  static Cron parseCron(String expression) {
    if (expression == null || expression.isBlank()) {
      throw new InvalidArgumentException("cron", "is required");
    }
    try {
      return UNIX.parse(expression.trim()).validate();
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException(
          "cron",
          "is not a Unix cron expression of 5 fields (\"" + expression + "\"): " + e.getMessage());
    }
  }

  /** The result of {@link #after}: times, and whether they are all that remain. */
  record Upcoming(List<Long> times, boolean complete) {}

  /** Up to {@link #AHEAD} occurrence times later than {@code afterMs}, ascending. */
  Upcoming after(long afterMs) {
    List<Long> out = new ArrayList<>(AHEAD);
    long after = Math.max(afterMs, start() - 1);
    while (out.size() < AHEAD) {
      Long t = next(after);
      if (t == null || t > endMs) {
        return new Upcoming(out, true);
      }
      out.add(t);
      after = t;
    }
    return new Upcoming(out, false);
  }

  private long start() {
    return startMs == Long.MIN_VALUE ? Long.MIN_VALUE + 1 : startMs;
  }

  /** The first time later than {@code after}, or null when there is none. */
  private Long next(long after) {
    if (cron == null) {
      long k = after < anchorMs ? 0 : Math.floorDiv(after - anchorMs, everyMs) + 1;
      return anchorMs + k * everyMs;
    }
    // Cron times are whole minutes: from the second holding `after`, the next is later than it.
    ZonedDateTime from = Instant.ofEpochMilli(after).truncatedTo(ChronoUnit.SECONDS).atZone(zone);
    Optional<ZonedDateTime> n = cron.nextExecution(from);
    return n.map(z -> z.toInstant().toEpochMilli()).orElse(null);
  }
}
