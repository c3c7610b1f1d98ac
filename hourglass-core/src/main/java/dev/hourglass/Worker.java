package dev.hourglass;

import java.time.Duration;

/**
 * A running consumer of one queue: claims due jobs while it has free handler slots, runs the
 * handler, and acks or nacks by the outcome. Idle, it blocks on Redis for a wake-up rather than
 * polling. Closing it stops claiming and waits for running handlers up to {@link
 * WorkerOptions#shutdownTimeout()}; a job whose handler did not finish by then is neither acked nor
 * lost: it comes back when its lease runs out.
 */
public interface Worker extends AutoCloseable {

  /**
   * The queue this worker consumes.
   *
   * @return the queue name
   */
  String queue();

  /**
   * Jobs this worker holds leased: being handled, or prefetched and waiting for a thread.
   *
   * @return the count now
   */
  int inFlight();

  /** Stops claiming, waits for running handlers up to the options' shutdown timeout. Idempotent. */
  @Override
  void close();

  /**
   * Like {@link #close()} with an explicit deadline for running handlers.
   *
   * @param timeout how long to wait for running handlers; zero waits for none
   */
  void close(Duration timeout);
}
