package dev.hourglass.model;

import static dev.hourglass.model.Judging.now;

import dev.hourglass.Backoff;
import dev.hourglass.JobState;
import dev.hourglass.Nack;
import java.time.Duration;
import java.util.List;

/**
 * The choices a scenario's steps are drawn from (due times, ttls, leases, receipts, failures,
 * targets), and the constants of the jobs they make.
 */
public final class Choices {
  public static final List<String> IDS = List.of("j0", "j1", "j2", "j3", "j4", "j5");

  /**
   * The priority every job of an id is enqueued with: 0 (j0, j3: they wait in near), 3 (j1, j4) or
   * 8 (j2, j5; both in K_PRIO), so that claims meet every mix of priorities, and a job keeps its
   * priority through every step (the model need not carry it).
   */
  public static int priorityOf(String id) {
    return new int[] {0, 3, 8}[(id.charAt(id.length() - 1) - '0') % 3];
  }

  public static final Duration FAR = Duration.ofHours(1);
  public static final Duration LONG_LEASE = Duration.ofHours(1);
  static final Backoff BACKOFF = Backoff.fixed(FAR);
  static final long PAST_MS = 5_000;

  private Choices() {}

  /** When a job is due. */
  public enum DueKind {
    /** No delay: due at the server's now, ready at once. */
    NOW,
    /** An explicit zero delay (for reschedule: the client's now as an absolute time). */
    ZERO,
    /** An absolute time 5 s in the past: ready at once. */
    PAST,
    /** Tens of ms ahead: waits in near, falls due during the test. */
    SOON,
    /** Hundreds of ms ahead, beyond the slot width: waits in a slot list, falls due during it. */
    SLOT,
    /** 1 h ahead: delayed for the whole test. */
    FAR
  }

  public record Due(DueKind kind, int ms) {
    long delayMs() {
      return switch (kind) {
        case NOW, ZERO, PAST -> 0;
        case SOON, SLOT -> ms;
        case FAR -> FAR.toMillis();
      };
    }

    boolean atOnce() {
      return kind == DueKind.NOW || kind == DueKind.ZERO || kind == DueKind.PAST;
    }

    @Override
    public String toString() {
      return kind == DueKind.SOON || kind == DueKind.SLOT ? kind + "(" + ms + "ms)" : kind.name();
    }
  }

  public enum TtlKind {
    NONE,
    /** Runs out during the test. */
    SHORT,
    LONG
  }

  public record Ttl(TtlKind kind, int ms) {
    static final Ttl NONE = new Ttl(TtlKind.NONE, 0);

    long millis() {
      return switch (kind) {
        case NONE -> 0;
        case SHORT -> ms;
        case LONG -> FAR.toMillis();
      };
    }

    @Override
    public String toString() {
      return kind == TtlKind.SHORT ? "ttl " + ms + "ms" : "ttl " + kind;
    }
  }

  public enum LeaseKind {
    /** Lapses during the test. */
    SHORT,
    LONG,
    /** No visibility on the claim: the job's own (1 h). */
    JOB_DEFAULT
  }

  public record Lease(LeaseKind kind, int ms) {
    Duration visibility() {
      return switch (kind) {
        case SHORT -> Duration.ofMillis(ms);
        case LONG -> LONG_LEASE;
        case JOB_DEFAULT -> null;
      };
    }

    long millis() {
      return kind == LeaseKind.SHORT ? ms : LONG_LEASE.toMillis();
    }

    @Override
    public String toString() {
      return kind == LeaseKind.SHORT ? "lease " + ms + "ms" : kind.name();
    }
  }

  /** Which receipt an ack, nack or extend presents. */
  public enum ReceiptKind {
    /** The job's current receipt (or its last one, when it is not leased). */
    CURRENT,
    /** A receipt of an earlier delivery of this id. */
    OLD,
    /** The current receipt of another leased job. */
    OTHER_JOB,
    /** A receipt no claim issued. */
    BOGUS
  }

  public enum FailKind {
    RETRY_NOW,
    RETRY_SOON,
    RETRY_SLOT,
    RETRY_FAR,
    /** Retry by the job's backoff: fixed 1 h. */
    BACKOFF,
    KILL
  }

  public record Fail(FailKind kind, int ms) {
    Nack nack(String error) {
      return switch (kind) {
        case RETRY_NOW -> Nack.retryAfter(Duration.ZERO, error);
        case RETRY_SOON, RETRY_SLOT -> Nack.retryAfter(Duration.ofMillis(ms), error);
        case RETRY_FAR -> Nack.retryAfter(FAR, error);
        case BACKOFF -> Nack.retry(error);
        case KILL -> Nack.kill(error);
      };
    }

    long delayMs() {
      return switch (kind) {
        case RETRY_NOW, KILL -> 0;
        case RETRY_SOON, RETRY_SLOT -> ms;
        case RETRY_FAR, BACKOFF -> FAR.toMillis();
      };
    }

    @Override
    public String toString() {
      return kind == FailKind.RETRY_SOON || kind == FailKind.RETRY_SLOT
          ? kind + "(" + ms + "ms)"
          : kind.name();
    }
  }

  public enum Prefer {
    ANY,
    DELAYED,
    READY,
    INFLIGHT,
    DEAD
  }

  /** Picks an id: one in the preferred state if the model has any, else any id of the pool. */
  public record Target(int pick, Prefer prefer) {
    String resolve(World w) {
      if (prefer != Prefer.ANY) {
        JobState state = JobState.valueOf(prefer.name());
        long now = now();
        List<String> in =
            w.jobs().values().stream()
                .filter(j -> j.stateAt(now) == state)
                .map(ModelJob::id)
                .toList();
        if (!in.isEmpty()) {
          return in.get(pick % in.size());
        }
      }
      return IDS.get(pick % IDS.size());
    }

    @Override
    public String toString() {
      return prefer == Prefer.ANY ? "id#" + pick : prefer.name().toLowerCase() + "#" + pick;
    }
  }

  public record Item(int id, Due due) {
    @Override
    public String toString() {
      return IDS.get(id) + "@" + due;
    }
  }
}
