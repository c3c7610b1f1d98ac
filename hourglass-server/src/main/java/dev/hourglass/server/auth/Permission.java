package dev.hourglass.server.auth;

/** The kinds of request the routes table asks a token for. */
public enum Permission {
  /** Enqueue, cancel and reschedule jobs. */
  PRODUCE,
  /** Claim, ack, nack and extend. */
  CONSUME,
  /** Read jobs, queues and dead letters. */
  READ,
  /** Change queue settings, requeue and purge dead letters. */
  ADMIN,
  /** Scrape {@code /metrics}. */
  METRICS
}
