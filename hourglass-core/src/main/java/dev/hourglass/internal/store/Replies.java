package dev.hourglass.internal.store;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** What the {@link Store}'s calls answer, decoded: one record per script reply. */
public final class Replies {
  private Replies() {}

  /** A queue's settings hash after queue_upsert, and the settings version it was read at. */
  /**
   * A queue's settings after an upsert: whether it created the queue, the settings version, the
   * stored fields, the outbox bound, and the fields whose stored value the upsert changed.
   */
  public record QueueRecord(
      boolean created,
      long version,
      Map<String, String> fields,
      long outboxBound,
      Set<String> changed) {}

  /**
   * A read of a partition's outbox: its size, and the entries read (stream id, then the fields of
   * outbox_add in partition.lua).
   */
  public record OutboxRead(long waiting, long dropped, List<OutboxEntry> entries) {}

  public record OutboxEntry(
      String recordId, String id, String outcome, long finishedMs, RecordCodec.Decoded record) {}

  /** One job of an enqueue: created ({@code OK}) or refused as a duplicate of a live job. */
  public record Enqueued(String id, Status status, String state, long dueMs) {}

  /** A promoter pass; see promote.lua. {@code nextWakeMs} is -1 when nothing is known. */
  public record Promoted(
      boolean leader,
      long madeReady,
      boolean more,
      long nextWakeMs,
      long nowMs,
      long lockUntilMs,
      long dueMs) {}

  /** A claim: the server time it ran at, and the jobs it leased. */
  /**
   * A claim's jobs; {@code heldForMs} is 0, or, when the queue's flow-control limits held ready
   * jobs back, how long after the claim (server time) they next let one through.
   */
  public record Claimed(long nowMs, List<ClaimedJob> jobs, long heldForMs) {}

  public record ClaimedJob(
      String id, RecordCodec.Decoded record, int attempt, String receipt, long leaseUntilMs) {}

  public record Nacked(Status status, boolean dead, long atMs) {}

  public record Extended(Status status, long leaseUntilMs) {}

  /** A reschedule: the job's new state and record, on {@code OK}. */
  public record Rescheduled(Status status, String state, long dueMs, RecordCodec.Decoded record) {}

  /** A get: on {@code OK}, the record, state, and lease deadline or time of death (0 otherwise). */
  public record Found(Status status, RecordCodec.Decoded record, String state, long atMs) {}

  /** A partition's counts by state and its counters. */
  public record Counts(
      long ready,
      long inflight,
      long dead,
      Map<String, Long> counters,
      boolean paused,
      long heldBack) {}

  /**
   * A job of a page by state, with its score: due time (delayed, ready), lease deadline (inflight)
   * or time of death (dead).
   */
  public record Listed(String member, String id, RecordCodec.Decoded record, long score) {}

  /**
   * A partition's deletion: {@code OK} with the jobs deleted, or {@code NOT_EMPTY} with its jobs.
   */
  public record Dropped(Status status, long jobs) {}
}
