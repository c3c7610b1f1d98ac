package dev.hourglass.internal;

import dev.hourglass.Backoff;
import dev.hourglass.Delivery;
import dev.hourglass.JobInfo;
import dev.hourglass.JobState;
import dev.hourglass.internal.store.RecordCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What a job record read from Redis looks like to a caller: a {@link JobInfo} or a {@link Delivery}
 * of one queue. A job without a backoff of its own takes its queue's (from the cached settings:
 * never blocks).
 */
final class JobViews {
  private final QueueTopology topology;

  JobViews(QueueTopology topology) {
    this.topology = topology;
  }

  /** The job's own backoff, or its queue's default. */
  Backoff backoffOf(RecordCodec.Decoded r) {
    return r.backoff() != null ? r.backoff() : topology.cached().settings().backoff();
  }

  JobInfo<byte[]> info(
      String id, JobState state, RecordCodec.Decoded r, long leaseUntil, long diedAt) {
    return new JobInfo<>(
        topology.name(),
        id,
        state,
        Instant.ofEpochMilli(r.due()),
        // The record counts finished attempts; an inflight job's delivery is one made, and its
        // claim called it attempt attempts + 1 (Deliveries).
        state == JobState.INFLIGHT ? r.attempts() + 1 : r.attempts(),
        r.maxAttempts(),
        r.priority(),
        Instant.ofEpochMilli(r.created()),
        r.expireAt() > 0 ? Optional.of(Instant.ofEpochMilli(r.expireAt())) : Optional.empty(),
        leaseUntil > 0 ? Optional.of(Instant.ofEpochMilli(leaseUntil)) : Optional.empty(),
        diedAt > 0 ? Optional.of(Instant.ofEpochMilli(diedAt)) : Optional.empty(),
        Duration.ofMillis(r.visibilityMs()),
        backoffOf(r),
        lastError(r),
        r.toPayload(),
        scheduleOf(id, r));
  }

  /**
   * A delivery of attempt {@code attempt}, leased until {@code leaseUntilMs}; {@code visibility} is
   * the claim's, or null for the job's own.
   */
  Delivery<byte[]> delivery(
      String id,
      RecordCodec.Decoded r,
      int attempt,
      String receipt,
      long leaseUntilMs,
      Duration visibility) {
    return new Delivery<>(
        topology.name(),
        id,
        r.toPayload(),
        attempt,
        r.maxAttempts(),
        r.priority(),
        receipt,
        Instant.ofEpochMilli(leaseUntilMs),
        Instant.ofEpochMilli(r.due()),
        Instant.ofEpochMilli(r.created()),
        visibility != null ? visibility : Duration.ofMillis(r.visibilityMs()),
        backoffOf(r),
        lastError(r),
        scheduleOf(id, r));
  }

  /**
   * The schedule of an occurrence (its record's flag, see record.lua): its id up to the last ':'.
   */
  static Optional<String> scheduleOf(String id, RecordCodec.Decoded r) {
    int colon = id.lastIndexOf(':');
    if ((r.flags() & RecordCodec.OCCURRENCE) == 0 || colon <= 0) {
      return Optional.empty();
    }
    return Optional.of(id.substring(0, colon));
  }

  private static Optional<String> lastError(RecordCodec.Decoded r) {
    return r.lastError().isEmpty() ? Optional.empty() : Optional.of(r.lastError());
  }
}
