package dev.hourglass.model;

import dev.hourglass.JobState;

/**
 * One live job of the model, as the documented semantics see it. Immutable; the {@code with...}
 * methods return changed copies.
 *
 * <p>Delayed and ready are not stored: a waiting job is ready once its due time has passed by the
 * server clock, wherever Redis keeps it ({@link #stateAt}). What is stored is what only a script
 * can change: whether the job is leased or dead, and, for a leased job, its deadline, which stays
 * in place after it has passed until a catch-up (a claim, stats or promoter pass) returns the job.
 *
 * @param partition the partition its id maps to
 * @param createdLo earliest possible creation time (server clock); {@code createdHi} the latest
 * @param expireAt when its ttl runs out (server clock), 0 for none
 * @param attempts attempts failed or expired so far
 * @param due its due time (server clock)
 * @param lastError "" for none
 * @param receipt the current lease's receipt, while leased
 * @param leaseUntil the current lease's deadline, while leased
 * @param diedLo earliest possible time of death, while dead; {@code diedHi} the latest
 * @param maybeInSlot whether it may wait in a slot list rather than in near (the only storage
 *     detail the API shows, through the count {@code promote()} returns)
 */
public record ModelJob(
    String id,
    int partition,
    String payload,
    int maxAttempts,
    long createdLo,
    long createdHi,
    long expireAt,
    int attempts,
    long due,
    String lastError,
    Phase phase,
    String receipt,
    long leaseUntil,
    long diedLo,
    long diedHi,
    boolean maybeInSlot) {

  /** Where a job is, as far as scripts are concerned. */
  public enum Phase {
    /** Delayed or ready, by its due time and the server clock. */
    WAITING,
    INFLIGHT,
    DEAD
  }

  static ModelJob created(
      String id,
      int partition,
      String payload,
      int maxAttempts,
      long createdLo,
      long createdHi,
      long expireAt,
      long due,
      boolean maybeInSlot) {
    return new ModelJob(
        id,
        partition,
        payload,
        maxAttempts,
        createdLo,
        createdHi,
        expireAt,
        0,
        due,
        "",
        Phase.WAITING,
        null,
        0,
        0,
        0,
        maybeInSlot);
  }

  /** True once its ttl has run out at server time {@code t}: {@code get()} no longer shows it. */
  public boolean expiredAt(long t) {
    return expireAt > 0 && expireAt <= t;
  }

  public boolean waiting() {
    return phase == Phase.WAITING;
  }

  public boolean leased() {
    return phase == Phase.INFLIGHT;
  }

  public boolean dead() {
    return phase == Phase.DEAD;
  }

  /** Its state at server time {@code t} (a leased job stays inflight until a catch-up). */
  public JobState stateAt(long t) {
    return switch (phase) {
      case INFLIGHT -> JobState.INFLIGHT;
      case DEAD -> JobState.DEAD;
      case WAITING -> due <= t ? JobState.READY : JobState.DELAYED;
    };
  }

  ModelJob waitingUntil(long newDue, boolean inSlot) {
    return new ModelJob(
        id,
        partition,
        payload,
        maxAttempts,
        createdLo,
        createdHi,
        expireAt,
        attempts,
        newDue,
        lastError,
        Phase.WAITING,
        null,
        0,
        0,
        0,
        inSlot);
  }

  ModelJob leasedUntil(String newReceipt, long until) {
    return new ModelJob(
        id,
        partition,
        payload,
        maxAttempts,
        createdLo,
        createdHi,
        expireAt,
        attempts,
        due,
        lastError,
        Phase.INFLIGHT,
        newReceipt,
        until,
        0,
        0,
        false);
  }

  /**
   * The current attempt failed with {@code error}: counted, lease dropped (the caller places it).
   */
  ModelJob failed(String error) {
    return new ModelJob(
        id,
        partition,
        payload,
        maxAttempts,
        createdLo,
        createdHi,
        expireAt,
        attempts + 1,
        due,
        error,
        Phase.WAITING,
        null,
        0,
        0,
        0,
        false);
  }

  ModelJob diedBetween(long lo, long hi) {
    return new ModelJob(
        id,
        partition,
        payload,
        maxAttempts,
        createdLo,
        createdHi,
        expireAt,
        attempts,
        due,
        lastError,
        Phase.DEAD,
        null,
        0,
        lo,
        hi,
        false);
  }

  /** Requeued from dead: attempts reset, due at {@code at}, last error kept. */
  ModelJob requeuedAt(long at) {
    return new ModelJob(
        id,
        partition,
        payload,
        maxAttempts,
        createdLo,
        createdHi,
        expireAt,
        0,
        at,
        lastError,
        Phase.WAITING,
        null,
        0,
        0,
        0,
        false);
  }

  ModelJob withLeaseUntil(long until) {
    return new ModelJob(
        id,
        partition,
        payload,
        maxAttempts,
        createdLo,
        createdHi,
        expireAt,
        attempts,
        due,
        lastError,
        phase,
        receipt,
        until,
        diedLo,
        diedHi,
        maybeInSlot);
  }

  /** Loaded from its slot list into near (or known to be there). */
  ModelJob inNear() {
    return maybeInSlot
        ? new ModelJob(
            id,
            partition,
            payload,
            maxAttempts,
            createdLo,
            createdHi,
            expireAt,
            attempts,
            due,
            lastError,
            phase,
            receipt,
            leaseUntil,
            diedLo,
            diedHi,
            false)
        : this;
  }

  /** An observation showed when it was created and, if dead, when it died. */
  ModelJob pinned(long created, long died) {
    return new ModelJob(
        id,
        partition,
        payload,
        maxAttempts,
        created,
        created,
        expireAt,
        attempts,
        due,
        lastError,
        phase,
        receipt,
        leaseUntil,
        dead() ? died : diedLo,
        dead() ? died : diedHi,
        maybeInSlot);
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder(id).append('{').append(phase);
    s.append(" attempts ").append(attempts).append('/').append(maxAttempts);
    s.append(" due ").append(due);
    if (maybeInSlot) {
      s.append(" (maybe in a slot)");
    }
    if (leased()) {
      s.append(" lease ").append(receipt).append(" until ").append(leaseUntil);
    }
    if (dead()) {
      s.append(" died ").append(diedLo).append("..").append(diedHi);
    }
    if (expireAt > 0) {
      s.append(" expires ").append(expireAt);
    }
    if (!lastError.isEmpty()) {
      s.append(" error '").append(lastError).append('\'');
    }
    return s.append('}').toString();
  }
}
