package dev.hourglass.internal;

import dev.hourglass.InvalidArgumentException;
import dev.hourglass.QueueSettings;
import dev.hourglass.ScheduleNotFoundException;
import dev.hourglass.ScheduleSpec;
import dev.hourglass.internal.QueueTopology.Snapshot;
import dev.hourglass.internal.store.Partition;
import dev.hourglass.internal.store.ScheduleCalls;
import dev.hourglass.internal.store.ScheduleCalls.Stored;
import dev.hourglass.internal.store.ServerClock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * One queue's schedules, whatever its handles' payload types: each write is one script on the
 * partition the schedule id hashes to (includes/schedule.lua), where its occurrences live too. The
 * cron arithmetic is done here ({@link ScheduleTimes}); scripts receive the times.
 */
final class RedisSchedules {
  static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,100}");

  private final String name;
  private final QueueTopology topology;
  private final ScheduleCalls calls;
  private final ServerClock clock;

  RedisSchedules(QueueTopology topology, ScheduleCalls calls, ServerClock clock) {
    this.name = topology.name();
    this.topology = topology;
    this.calls = calls;
    this.clock = clock;
  }

  /** A schedule as read, its definition decoded. */
  record View(Stored stored, ScheduleDefinition definition, List<Long> nextRuns) {}

  /** What {@link #put} did: the schedule as read after the write, and whether it created it. */
  record Put(View view, boolean created) {}

  static String id(String id) {
    if (id == null || !ID.matcher(id).matches()) {
      throw new InvalidArgumentException(
          "id", "must be 1 to 100 of A-Z a-z 0-9 . _ - (was " + Names.quote(id) + ")");
    }
    return id;
  }

  /** Checks a spec (throws before anything is sent) and writes it with its encoded payload. */
  CompletableFuture<Put> put(ScheduleSpec<?> spec, byte[] payload) {
    ScheduleDefinition checked = check(spec, payload);
    String id = spec.id();
    return topology
        .snapshotAsync()
        .thenCompose(
            s -> {
              Partition p = s.partitionOf(id);
              return calls
                  .read(p, id)
                  .thenCompose(old -> write(s, p, id, anchored(checked, old)))
                  .thenCompose(created -> read(p, id).thenApply(v -> new Put(v, created)));
            });
  }

  /** An interval without a start keeps counting from its first creation. */
  private ScheduleDefinition anchored(ScheduleDefinition d, Stored old) {
    if (d.cron() != null || d.startAtMs() != null) {
      return d;
    }
    long anchor = clock.nowMs();
    if (old != null) {
      ScheduleDefinition before = ScheduleDefinition.decode(old.definition());
      if (before.cron() == null && before.startAtMs() == null) {
        anchor = before.anchorMs();
      }
    }
    return new ScheduleDefinition(
        null,
        d.zone(),
        d.everyMs(),
        anchor,
        null,
        d.endAtMs(),
        d.maxAttempts(),
        d.backoff(),
        d.visibilityMs(),
        d.ttlMs(),
        d.priority(),
        d.payload());
  }

  private CompletableFuture<Boolean> write(
      Snapshot s, Partition p, String id, ScheduleDefinition d) {
    QueueSettings q = s.settings();
    long ttl = d.ttlMs() != null ? d.ttlMs() : q.ttl().map(Duration::toMillis).orElse(0L);
    byte[] template =
        ScheduleCalls.template(
            d.priority() == null ? 0 : d.priority(),
            d.maxAttempts() == null ? q.maxAttempts() : d.maxAttempts(),
            d.visibilityMs() == null ? q.visibility().toMillis() : d.visibilityMs(),
            d.backoff(),
            d.payload());
    ScheduleTimes.Upcoming up = ScheduleTimes.of(d).after(clock.nowMs() - ScheduleKeeper.SLACK_MS);
    return calls.put(p, id, d.timing(), d.encode(), template, ttl, up.complete(), up.times());
  }

  private ScheduleDefinition check(ScheduleSpec<?> spec, byte[] payload) {
    if (spec == null) {
      throw new InvalidArgumentException("spec", "is required");
    }
    id(spec.id());
    if (payload == null) {
      throw new InvalidArgumentException("payload", "is required");
    }
    String cron = null;
    String zone = spec.zone().getId();
    long every = 0;
    if (spec.cron().isPresent()) {
      cron = spec.cron().get().trim();
      ScheduleTimes.parseCron(cron);
      zone = zone(zone);
    } else {
      Duration d =
          spec.every().orElseThrow(() -> new InvalidArgumentException("every", "is required"));
      if (d.toMillis() < 1000) {
        throw new InvalidArgumentException(
            "every", "must be at least 1000 ms, was " + d.toMillis());
      }
      every = d.toMillis();
    }
    Long start = spec.startAt().map(i -> i.toEpochMilli()).orElse(null);
    Long end = spec.endAt().map(i -> i.toEpochMilli()).orElse(null);
    if (start != null && end != null && end < start) {
      throw new InvalidArgumentException("endAt", "must not be before startAt");
    }
    spec.maxAttempts()
        .filter(n -> n < 1 || n > 1000)
        .ifPresent(
            n -> {
              throw new InvalidArgumentException("maxAttempts", "must be 1..1000, was " + n);
            });
    spec.priority()
        .filter(n -> n < 0 || n > 9)
        .ifPresent(
            n -> {
              throw new InvalidArgumentException("priority", "must be 0..9, was " + n);
            });
    spec.visibility().ifPresent(v -> Names.duration("visibility", v));
    spec.ttl().ifPresent(v -> Names.duration("ttl", v));
    return new ScheduleDefinition(
        cron,
        zone,
        every,
        start == null ? 0 : start,
        start,
        end,
        spec.maxAttempts().orElse(null),
        spec.backoff().orElse(null),
        spec.visibility().map(Duration::toMillis).orElse(null),
        spec.ttl().map(Duration::toMillis).orElse(null),
        spec.priority().orElse(null),
        payload);
  }

  /** A time zone id, checked; {@link InvalidArgumentException} on field {@code timeZone}. */
  static String zone(String zone) {
    try {
      return ZoneId.of(zone).getId();
    } catch (DateTimeException | NullPointerException e) {
      throw new InvalidArgumentException("timeZone", "is not a known time zone: " + zone);
    }
  }

  CompletableFuture<Optional<View>> get(String id) {
    id(id);
    return topology
        .snapshotAsync()
        .thenCompose(s -> read(s.partitionOf(id), id))
        .thenApply(Optional::ofNullable);
  }

  CompletableFuture<List<View>> list() {
    return topology
        .snapshotAsync()
        .thenCompose(
            s -> {
              List<CompletableFuture<List<Stored>>> parts = new ArrayList<>();
              for (Partition p : s.partitions()) {
                parts.add(calls.all(p));
              }
              return CompletableFuture.allOf(parts.toArray(new CompletableFuture<?>[0]))
                  .thenApply(
                      v -> {
                        List<View> out = new ArrayList<>();
                        for (CompletableFuture<List<Stored>> f : parts) {
                          f.join().forEach(st -> out.add(view(st)));
                        }
                        out.sort(Comparator.comparing(w -> w.stored().id()));
                        return out;
                      });
            });
  }

  /** Deletes a schedule and its pending occurrence; the future holds whether it existed. */
  CompletableFuture<Boolean> delete(String id) {
    id(id);
    return topology.snapshotAsync().thenCompose(s -> calls.change(s.partitionOf(id), id, "delete"));
  }

  /** Pauses or resumes; the future fails with {@link ScheduleNotFoundException}. */
  CompletableFuture<Optional<View>> change(String id, String op) {
    id(id);
    return topology
        .snapshotAsync()
        .thenCompose(
            s -> {
              Partition p = s.partitionOf(id);
              return calls
                  .change(p, id, op)
                  .thenCompose(
                      found -> {
                        if (!found) {
                          throw new ScheduleNotFoundException(name, id);
                        }
                        return read(p, id).thenApply(Optional::ofNullable);
                      });
            });
  }

  private CompletableFuture<View> read(Partition p, String id) {
    return calls.read(p, id).thenApply(st -> st == null ? null : view(st));
  }

  private View view(Stored st) {
    ScheduleDefinition d = ScheduleDefinition.decode(st.definition());
    List<Long> runs = new ArrayList<>(3);
    long from = Math.max(st.lastMs(), clock.nowMs());
    if (st.pendingMs() > 0) {
      runs.add(st.pendingMs());
      from = st.pendingMs();
    }
    for (long t : ScheduleTimes.of(d).after(from).times()) {
      if (runs.size() == 3) {
        break;
      }
      runs.add(t);
    }
    return new View(st, d, runs);
  }
}
