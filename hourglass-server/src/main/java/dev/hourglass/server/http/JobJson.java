package dev.hourglass.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.Delivery;
import dev.hourglass.EnqueueResult;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobInfo;
import dev.hourglass.JobSpec;
import dev.hourglass.JobState;
import dev.hourglass.server.json.ApiException;
import dev.hourglass.server.json.BackoffJson;
import dev.hourglass.server.json.Fields;
import dev.hourglass.server.json.JsonIn;
import dev.hourglass.server.json.JsonOut;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/** Jobs between the API's JSON and the library's types. */
public final class JobJson {
  /** Longest delayMs accepted: the library's {@link JobSpec#MAX_DELAY}. */
  static final long MAX_DELAY_MS = JobSpec.MAX_DELAY.toMillis();

  private static final long MAX_LEASE_MS = JobSpec.MAX_DURATION.toMillis();

  private JobJson() {}

  /**
   * A job spec from an enqueue body (or one element of a batch, with {@code prefix} {@code
   * jobs[i].}).
   *
   * @param job the request's job object
   * @param prefix what field names in errors start with: empty, or {@code jobs[i].}
   * @param maxPayloadBytes the largest payload accepted
   * @return the job spec
   * @throws ApiException 400 naming the field, or 413 when the payload is over the limit
   */
  public static JobSpec spec(JsonIn.Obj job, String prefix, int maxPayloadBytes) {
    Fields f =
        new Fields(job.fields(), prefix)
            .only(
                "id",
                "payload",
                "delayMs",
                "runAt",
                "maxAttempts",
                "backoff",
                "visibilityMs",
                "ttlMs",
                "priority");
    if (job.rawPayload() == null) {
      throw f.invalid("payload", "is required (any JSON value)");
    }
    if (job.rawPayload().length > maxPayloadBytes) {
      throw new ApiException(
          413,
          "payload_too_large",
          f.name("payload")
              + ": "
              + job.rawPayload().length
              + " bytes is over the limit of "
              + maxPayloadBytes);
    }
    JobSpec.Builder b = JobSpec.builder().payload(job.rawPayload());
    f.optText("id", 128).ifPresent(b::id); // its pattern is checked by build(), as for Java callers
    if (f.has("delayMs") && f.has("runAt")) {
      throw f.invalid("delayMs", "give delayMs or runAt, not both");
    }
    f.optMillis("delayMs", 0, MAX_DELAY_MS).ifPresent(b::delay);
    runAt(f).ifPresent(b::runAt);
    f.optLong("maxAttempts", 1, JobSpec.MAX_ATTEMPTS_LIMIT).ifPresent(n -> b.maxAttempts((int) n));
    f.optObject("backoff").ifPresent(o -> b.backoff(BackoffJson.read(o)));
    f.optMillis("visibilityMs", 1, MAX_LEASE_MS).ifPresent(b::visibility);
    f.optMillis("ttlMs", 1, MAX_LEASE_MS).ifPresent(b::ttl);
    f.optLong("priority", 0, JobSpec.MAX_PRIORITY).ifPresent(n -> b.priority((int) n));
    JobSpec spec;
    try {
      spec = b.build();
    } catch (InvalidArgumentException e) {
      throw ApiException.invalidField(f.name(ErrorMapper.apiField(e.field())), e.reason());
    }
    checkTtl(f, spec);
    return spec;
  }

  /**
   * The body's {@code runAt}, an integer of epoch ms in the library's range ({@link
   * JobSpec.Builder#checkRunAt}, the one rule for it), checked before anything is read or written.
   *
   * @throws ApiException 400 {@code invalid_field} naming {@code runAt}
   */
  static Optional<Instant> runAt(Fields f) {
    OptionalLong ms = f.optLong("runAt");
    if (ms.isEmpty()) {
      return Optional.empty();
    }
    Instant runAt = Instant.ofEpochMilli(ms.getAsLong());
    try {
      JobSpec.Builder.checkRunAt(runAt);
    } catch (InvalidArgumentException e) {
      throw f.invalid("runAt", e.reason());
    }
    return Optional.of(runAt);
  }

  /**
   * Refuses a ttl shorter than the wait before the job runs (API.md 1.1): it would expire unrun.
   * For {@code runAt} the wait is measured on this server's clock.
   */
  private static void checkTtl(Fields f, JobSpec spec) {
    if (spec.ttl().isEmpty()) {
      return;
    }
    long ttl = spec.ttl().get().toMillis();
    long wait =
        spec.delay().isPresent()
            ? spec.delay().get().toMillis()
            : spec.runAt().map(t -> t.toEpochMilli() - System.currentTimeMillis()).orElse(0L);
    if (ttl < wait) {
      throw f.invalid(
          "ttlMs",
          "is shorter than the wait before the job runs ("
              + ttl
              + " ms < "
              + wait
              + " ms): it would expire before it runs");
    }
  }

  /**
   * A job state as the API writes it.
   *
   * @param state a job's state
   * @return e.g. {@code delayed}
   */
  public static String state(JobState state) {
    return state.name().toLowerCase(Locale.ROOT);
  }

  /**
   * An enqueue's answer: the job's id, queue, due time and state.
   *
   * @param r the enqueue's result
   * @return the JSON object
   */
  public static ObjectNode enqueued(EnqueueResult r) {
    ObjectNode o = JsonOut.object();
    o.put("id", r.id()).put("queue", r.queue()).put("runAt", r.runAt().toEpochMilli());
    o.put("state", state(r.state()));
    return o;
  }

  /**
   * A job as {@code GET .../jobs/{id}} answers it.
   *
   * @param j the job
   * @return the JSON object
   */
  public static ObjectNode job(JobInfo<byte[]> j) {
    ObjectNode o = JsonOut.object();
    o.put("id", j.id()).put("queue", j.queue()).put("state", state(j.state()));
    o.put("runAt", j.runAt().toEpochMilli());
    o.put("attempts", j.attempts()).put("maxAttempts", j.maxAttempts());
    o.put("priority", j.priority());
    o.put("createdAt", j.createdAt().toEpochMilli());
    JsonOut.putPayload(o, "payload", j.payload());
    j.lastError().ifPresent(e -> o.put("lastError", e));
    j.leaseUntil().ifPresent(t -> o.put("leaseUntil", t.toEpochMilli()));
    j.diedAt().ifPresent(t -> o.put("diedAt", t.toEpochMilli()));
    j.expiresAt().ifPresent(t -> o.put("expiresAt", t.toEpochMilli()));
    o.put("visibilityMs", j.visibility().toMillis());
    o.set("backoff", BackoffJson.write(j.backoff()));
    j.schedule().ifPresent(s -> o.put("schedule", s));
    return o;
  }

  /**
   * A claimed job, with its receipt and lease, as a claim answers it.
   *
   * @param d the delivery
   * @return the JSON object
   */
  public static ObjectNode delivery(Delivery<byte[]> d) {
    ObjectNode o = JsonOut.object();
    o.put("id", d.id());
    JsonOut.putPayload(o, "payload", d.payload());
    o.put("attempt", d.attempt()).put("receipt", d.receipt());
    o.put("leaseUntil", d.leaseUntil().toEpochMilli());
    o.put("queue", d.queue()).put("maxAttempts", d.maxAttempts()).put("priority", d.priority());
    o.put("runAt", d.dueAt().toEpochMilli()).put("createdAt", d.createdAt().toEpochMilli());
    d.lastError().ifPresent(e -> o.put("lastError", e));
    d.schedule().ifPresent(s -> o.put("schedule", s));
    return o;
  }
}
