package dev.hourglass.internal.store;

/** The status a partition script replies with first (the codes of includes/partition.lua). */
public enum Status {
  OK,
  NOT_FOUND,
  STALE_RECEIPT,
  INFLIGHT,
  DUPLICATE,
  DEAD,
  /** The script must load slot lists its caller did not declare; {@link Store} calls again. */
  NEED_SLOTS,
  /** A partition to delete still holds jobs. */
  NOT_EMPTY,
  /** Clock work has fallen due: the caller runs clock.lua first, then calls again. */
  CATCH_UP,
  /** The caller's estimate of the server clock was off: it writes its records again. */
  CLOCK_SKEW,
  /**
   * The partition does not hold the zstd dictionary the call's payloads were compressed with: the
   * call is sent again with it ({@link Payloads}).
   */
  NEED_DICTIONARY;

  private static final Status[] BY_CODE = values();

  static Status of(long code) {
    if (code < 0 || code >= BY_CODE.length) {
      throw new IllegalStateException("unknown script status " + code);
    }
    return BY_CODE[(int) code];
  }
}
