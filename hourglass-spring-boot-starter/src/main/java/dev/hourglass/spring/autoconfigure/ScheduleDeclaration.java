package dev.hourglass.spring.autoconfigure;

import dev.hourglass.Hourglass;
import dev.hourglass.ScheduleSpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneId;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@link dev.hourglass.spring.HourglassSchedule} found beside a listener method, its placeholders
 * resolved and its timing checked: {@link #put} registers it (an idempotent upsert).
 */
record ScheduleDeclaration(String queue, ScheduleSpec<byte[]> spec, String method) {
  private static final Pattern SHORT = Pattern.compile("(\\d{1,12})(ms|s|m|h|d)");

  static ScheduleDeclaration of(
      String queue, String method, String id, String cron, String zone, String every, String json) {
    byte[] payload = json.getBytes(StandardCharsets.UTF_8);
    if (cron.isEmpty() == every.isEmpty()) {
      throw new IllegalStateException(
          "@HourglassSchedule on " + method + ": give exactly one of cron and every");
    }
    ScheduleSpec<byte[]> spec;
    try {
      spec =
          cron.isEmpty()
              ? ScheduleSpec.every(id, duration(every), payload).build()
              : ScheduleSpec.cron(id, cron, ZoneId.of(zone), payload).build();
    } catch (java.time.DateTimeException e) {
      throw new IllegalStateException(
          "@HourglassSchedule on " + method + ": zone \"" + zone + "\": " + e.getMessage(), e);
    }
    return new ScheduleDeclaration(queue, spec, method);
  }

  /** {@code 30s}, {@code 5m}, {@code 1500ms}, ... or ISO-8601. */
  private static Duration duration(String text) {
    Matcher m = SHORT.matcher(text);
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        default -> Duration.ofDays(n);
      };
    }
    return Duration.parse(text);
  }

  /** Puts the schedule; a refusal fails startup naming the method. */
  void put(Hourglass hourglass) {
    try {
      hourglass.queue(queue).schedules().put(spec);
    } catch (dev.hourglass.InvalidArgumentException e) {
      throw new IllegalStateException(
          "@HourglassSchedule on " + method + ": " + e.field() + " " + e.reason(), e);
    }
  }
}
