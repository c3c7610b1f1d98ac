package dev.hourglass.server.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.Backoff;
import dev.hourglass.JobSpec;
import dev.hourglass.ScheduleInfo;
import dev.hourglass.ScheduleSpec;
import dev.hourglass.server.json.ApiException;
import dev.hourglass.server.json.BackoffJson;
import dev.hourglass.server.json.Fields;
import dev.hourglass.server.json.JsonIn;
import dev.hourglass.server.json.JsonOut;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;

/** Schedules between the API's JSON (API.md 1.2, "Schedules") and the library's types. */
final class ScheduleJson {
  private static final long MAX_LEASE_MS = JobSpec.MAX_DURATION.toMillis();

  /** The fields of a schedule's PUT body. */
  static final String[] FIELDS = {
    "cron",
    "every",
    "timeZone",
    "payload",
    "startAt",
    "endAt",
    "maxAttempts",
    "backoff",
    "visibilityMs",
    "ttlMs",
    "priority"
  };

  private ScheduleJson() {}

  /**
   * A schedule spec from a PUT body; the library checks the rest (cron, interval, end before start)
   * and names the field.
   *
   * @throws ApiException 400 naming the field, or 413 when the payload is over the limit
   */
  static ScheduleSpec<byte[]> spec(String id, JsonIn.Obj body, int maxPayloadBytes) {
    Fields f = new Fields(body.fields(), "").only(FIELDS);
    if (body.rawPayload() == null) {
      throw f.invalid("payload", "is required (any JSON value)");
    }
    if (body.rawPayload().length > maxPayloadBytes) {
      throw new ApiException(
          413,
          "payload_too_large",
          "payload: "
              + body.rawPayload().length
              + " bytes is over the limit of "
              + maxPayloadBytes);
    }
    // Nested objects first, so that an unknown field anywhere is named before a missing timing.
    Optional<Backoff> backoff = f.optObject("backoff").map(BackoffJson::read);
    if (f.has("cron") == f.has("every")) {
      throw f.invalid("cron", "give exactly one of cron or every");
    }
    ScheduleSpec.Builder<byte[]> b;
    if (f.has("cron")) {
      b = ScheduleSpec.cron(id, f.text("cron", 200), zone(f), body.rawPayload());
    } else {
      long every = f.optLong("every", 1000, Long.MAX_VALUE / 2).getAsLong();
      // kept as written (checked), though an interval does not follow a wall clock
      b = ScheduleSpec.every(id, Duration.ofMillis(every), body.rawPayload()).zone(zone(f));
    }
    f.optLong("startAt", 0, JobSpec.MAX_DELAY.toMillis() * 1000)
        .ifPresent(t -> b.startAt(Instant.ofEpochMilli(t)));
    f.optLong("endAt", 0, JobSpec.MAX_DELAY.toMillis() * 1000)
        .ifPresent(t -> b.endAt(Instant.ofEpochMilli(t)));
    f.optLong("maxAttempts", 1, JobSpec.MAX_ATTEMPTS_LIMIT).ifPresent(n -> b.maxAttempts((int) n));
    backoff.ifPresent(b::backoff);
    f.optMillis("visibilityMs", 1, MAX_LEASE_MS).ifPresent(b::visibility);
    f.optMillis("ttlMs", 1, MAX_LEASE_MS).ifPresent(b::ttl);
    f.optLong("priority", 0, 9).ifPresent(p -> b.priority((int) p));
    return b.build();
  }

  private static ZoneId zone(Fields f) {
    String zone = f.optText("timeZone", 100).orElse("UTC");
    try {
      return ZoneId.of(zone);
    } catch (DateTimeException e) {
      throw f.invalid("timeZone", "is not a known IANA time zone: \"" + zone + "\"");
    }
  }

  /** A schedule as GET returns it. */
  static ObjectNode schedule(ScheduleInfo<byte[]> s) {
    ObjectNode o = JsonOut.object();
    o.put("id", s.id()).put("queue", s.queue());
    s.cron().ifPresent(c -> o.put("cron", c));
    s.every().ifPresent(e -> o.put("every", e.toMillis()));
    o.put("timeZone", s.timeZone().getId());
    JsonOut.putPayload(o, "payload", s.payload());
    s.startAt().ifPresent(t -> o.put("startAt", t.toEpochMilli()));
    s.endAt().ifPresent(t -> o.put("endAt", t.toEpochMilli()));
    s.maxAttempts().ifPresent(n -> o.put("maxAttempts", n));
    s.backoff().ifPresent(b -> o.set("backoff", BackoffJson.write(b)));
    s.visibility().ifPresent(d -> o.put("visibilityMs", d.toMillis()));
    s.ttl().ifPresent(d -> o.put("ttlMs", d.toMillis()));
    s.priority().ifPresent(p -> o.put("priority", p));
    o.put("paused", s.paused());
    ArrayNode runs = o.putArray("nextRuns");
    s.nextRuns().forEach(t -> runs.add(t.toEpochMilli()));
    return o;
  }
}
