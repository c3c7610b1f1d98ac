package dev.hourglass;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;

/**
 * A schedule as {@link Schedules#get} reads it: its definition as written, whether it is paused,
 * and its next three occurrence times.
 *
 * @param queue the queue
 * @param id the schedule id
 * @param cron the cron expression of a cron schedule
 * @param every the interval of a schedule of a fixed interval
 * @param timeZone the zone a cron expression follows
 * @param payload the payload of every occurrence
 * @param startAt no occurrence before it, if set
 * @param endAt no occurrence after it, if set
 * @param maxAttempts the occurrences' own, if set
 * @param backoff the occurrences' own, if set
 * @param visibility the occurrences' own, if set
 * @param ttl the occurrences' own, if set
 * @param priority the occurrences' own, if set
 * @param paused whether it is paused (it enqueues no occurrence)
 * @param nextRuns its next three occurrence times (the pending one first), fewer near its end
 * @param <T> the payload type of the queue handle
 */
public record ScheduleInfo<T>(
    String queue,
    String id,
    Optional<String> cron,
    Optional<Duration> every,
    ZoneId timeZone,
    Payload<T> payload,
    Optional<Instant> startAt,
    Optional<Instant> endAt,
    Optional<Integer> maxAttempts,
    Optional<Backoff> backoff,
    Optional<Duration> visibility,
    Optional<Duration> ttl,
    Optional<Integer> priority,
    boolean paused,
    List<Instant> nextRuns) {}
